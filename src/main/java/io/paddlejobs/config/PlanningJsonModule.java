package io.paddlejobs.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.paddlejobs.planning.Cpu;
import io.paddlejobs.planning.JobEvent;
import io.paddlejobs.planning.JobMode;
import io.paddlejobs.planning.JobRequest;
import io.paddlejobs.planning.Memory;
import io.paddlejobs.planning.RestartOn;
import io.paddlejobs.planning.Role;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.ToStringSerializer;

/**
 * The JSON form of the planning types, which carry no annotations (planning imports java.*
 * only): quantities as Kubernetes writes them ({@code 250m}, {@code 1Gi}), roles in lower case.
 * Used for responses and for the records a backend stores.
 */
public final class PlanningJsonModule extends SimpleModule {

    public PlanningJsonModule() {
        super("paddle-jobs-planning");
        addSerializer(Memory.class, ToStringSerializer.instance);
        addSerializer(Cpu.class, ToStringSerializer.instance);
        addDeserializer(Memory.class, new FromText<>(Memory.class) {
            @Override
            Memory parse(String text) {
                return Memory.parse(text);
            }
        });
        addDeserializer(Cpu.class, new FromText<>(Cpu.class) {
            @Override
            Cpu parse(String text) {
                return Cpu.parse(text);
            }
        });
        setMixInAnnotation(Role.class, RoleWireName.class);
        setMixInAnnotation(JobMode.class, ModeWireName.class);
        setMixInAnnotation(JobRequest.class, FlatJobRequest.class);
        setMixInAnnotation(JobRequest.Code.class, CodeWireNames.class);
        setMixInAnnotation(RestartOn.class, RestartOnWireForm.class);
        setMixInAnnotation(JobEvent.class, EventWireName.class);
        setMixInAnnotation(JobRequest.Notifications.class, NotificationsWireNames.class);
    }

    /** {@code restart_on} is written as requests write it: a word, or a list of words and exit codes. */
    abstract static class RestartOnWireForm {
        @JsonValue
        abstract Object wire();

        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        static RestartOn parse(Object wire) {
            return RestartOn.parse(wire);
        }
    }

    /**
     * A request is written flat, as users write it: its parts are a Java shape, not a wire one, so
     * responses and stored records keep the request document's own form.
     */
    abstract static class FlatJobRequest {
        @JsonUnwrapped
        abstract JobRequest.Code code();

        @JsonUnwrapped
        abstract JobRequest.Topology topology();

        @JsonUnwrapped
        abstract JobRequest.Compute compute();

        @JsonUnwrapped
        abstract JobRequest.Placement placement();

        @JsonUnwrapped
        abstract JobRequest.Lifecycle lifecycle();

        @JsonUnwrapped
        abstract JobRequest.Notifications notifications();
    }

    /** {@code notify} cannot name a record component (every object has a method of that name). */
    abstract static class NotificationsWireNames {
        @JsonProperty("notify")
        abstract java.util.List<JobRequest.Notify> webhooks();
    }

    /** Events are written as requests name them: {@code started}, {@code failed}. */
    abstract static class EventWireName {
        @JsonValue
        abstract String wireName();

        @JsonCreator
        static JobEvent parse(String text) {
            return JobEvent.parse(text);
        }
    }

    /** {@code package} is a Java keyword, so the record says {@code codePackage}; the wire says {@code package}. */
    abstract static class CodeWireNames {
        @JsonProperty("package")
        abstract String codePackage();
    }

    /** Modes are written {@code ps} and {@code collective}, as in requests. */
    public abstract static class ModeWireName {
        @JsonValue
        abstract String label();

        @JsonCreator
        static JobMode fromLabel(String label) {
            return JobMode.fromLabel(label);
        }
    }

    /** Roles are written {@code pserver} and {@code trainer}, as in URLs and labels. */
    public abstract static class RoleWireName {
        @JsonValue
        abstract String label();

        @JsonCreator
        static Role fromLabel(String label) {
            return Role.fromLabel(label);
        }
    }

    private abstract static class FromText<T> extends StdDeserializer<T> {
        FromText(Class<T> type) {
            super(type);
        }

        abstract T parse(String text);

        @Override
        public T deserialize(JsonParser p, DeserializationContext context) {
            return parse(p.getValueAsString());
        }
    }
}
