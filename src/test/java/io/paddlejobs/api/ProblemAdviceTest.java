package io.paddlejobs.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

class ProblemAdviceTest {

    @RestController
    static class Broken {
        @GetMapping("/broken")
        String broken() {
            return Integer.toString(Integer.parseInt("not a number"));
        }

        @GetMapping("/unparsable-query")
        String unparsableQuery() {
            // What Tomcat throws from getParameter for ?=x or a bad %-escape, wherever it is first asked.
            throw new org.apache.tomcat.util.http.InvalidParameterException("parameter name is empty");
        }
    }

    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new Broken())
            .setControllerAdvice(new ProblemAdvice()).build();

    @Test
    void anInternalIllegalArgumentIsAnInternalErrorThatKeepsItsJavaMessageToItself() throws Exception {
        MvcResult result = mvc.perform(get("/broken")).andReturn();

        assertThat(result.getResponse().getStatus()).isEqualTo(500);
        assertThat(result.getResponse().getContentAsString())
                .contains("The service failed to handle this request")
                .doesNotContain("not a number", "NumberFormatException");
    }

    @Test
    void aQueryStringTomcatCannotParseIsABadRequestNamingTheQuery() throws Exception {
        MvcResult result = mvc.perform(get("/unparsable-query")).andReturn();

        assertThat(result.getResponse().getStatus()).isEqualTo(400);
        assertThat(result.getResponse().getContentAsString())
                .contains("\"field\":\"query\"")
                .doesNotContain("parameter name is empty", "Exception");
    }
}
