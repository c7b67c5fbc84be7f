package io.paddlejobs;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.properties.CanBeAnnotated;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.paddlejobs.job.Quota;
import io.paddlejobs.job.Tenancy;
import io.paddlejobs.security.InNamespace;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.stereotype.Controller;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The package boundaries (STYLE "Layout"), each rule with the reason it exists: the planner is
 * pure, the job service speaks to backends only through its port, security decides who may do
 * what and knows nothing of configuration or backends, fabric8 stays where Kubernetes is spoken,
 * and the HTTP layer (api/ with api/stream and api/openapi, and web/) sits on top of everything else.
 */
class ArchitectureTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.paddlejobs");

    @Test
    void noTwoPackagesDependOnEachOther() {
        slices().matching("io.paddlejobs.(*)..").should().beFreeOfCycles()
                .because("a package that is used by what it uses cannot be read, changed or tested on its own")
                .check(PRODUCTION);
    }

    @Test
    void planningDependsOnNothingButJavaAndItself() {
        classes().that().resideInAPackage("io.paddlejobs.planning..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.paddlejobs.planning..")
                .because("a plan is a pure function of the request, the policy and the site")
                .check(PRODUCTION);
    }

    @Test
    void problemTypesDependOnNothingButJava() {
        classes().that().resideInAPackage("io.paddlejobs.problem..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.paddlejobs.problem..")
                .because("every package names its problems' types from there, so it may use none of them")
                .check(PRODUCTION);
    }

    @Test
    void theAttemptLifecycleIsPure() {
        classes().that().resideInAPackage("io.paddlejobs.job.attempt..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java.lang..", "java.time..", "java.util..",
                        "io.paddlejobs.job..", "io.paddlejobs.planning..")
                .because("what an ended attempt leads to is decided the same for every backend, from what the backend"
                        + " reports: no I/O, no Spring, no cluster client")
                .check(PRODUCTION);
    }

    @Test
    void securityDependsOnNeitherConfigurationNorBackends() {
        noClasses().that().resideInAPackage("io.paddlejobs.security..")
                .should().dependOnClassesThat().resideInAnyPackage("io.paddlejobs.config..", "io.paddlejobs.backend..")
                .because("who may do what is decided apart from how jobs are planned and where they run")
                .check(PRODUCTION);
    }

    @Test
    void securityHandsTheJobServiceAQuotaAndCallsNothingOfIt() {
        noClasses().that().resideInAPackage("io.paddlejobs.security..")
                .should().dependOnClassesThat(resideInAPackage("io.paddlejobs.job..").and(not(type(Quota.class))).and(not(type(Tenancy.class))))
                .because("the controller asks the job service; security only says what a caller may hold, and "
                        + "backends whether tenants share the service")
                .check(PRODUCTION);
    }

    @Test
    void theJobServiceKnowsBackendsOnlyThroughItsPort() {
        noClasses().that().resideInAPackage("io.paddlejobs.job..")
                .should().dependOnClassesThat().resideInAnyPackage("io.paddlejobs.backend.local..",
                        "io.paddlejobs.backend.kubernetes..", "io.paddlejobs.backend.slurm..", "io.paddlejobs.api..",
                        "io.paddlejobs.security..", "io.paddlejobs.config..")
                .because("JobBackend is the port; which backend runs is configuration, and who asks is the web layer's")
                .check(PRODUCTION);
    }

    @Test
    void backendsKnowNothingOfTheWebLayerOrSecurity() {
        noClasses().that().resideInAPackage("io.paddlejobs.backend..")
                .should().dependOnClassesThat().resideInAnyPackage("io.paddlejobs.api..", "io.paddlejobs.security..")
                .because("a backend runs what it is given, whoever asked")
                .check(PRODUCTION);
    }

    /**
     * Like the job package, backends may raise problem documents (STYLE, "Problem details"), such as
     * a 503 when the cluster is away.
     */
    @Test
    void backendsServeNoRequests() {
        noClasses().that().resideInAnyPackage("io.paddlejobs.backend..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework.web.servlet..",
                        "org.springframework.web.bind..", "org.springframework.web.filter..", "jakarta.servlet..")
                .because("requests are served by api/, web/ and the feature packages' controllers:"
                        + " a backend has no controllers, filters or servlets")
                .check(PRODUCTION);
    }

    @Test
    void nothingBelowTheHttpLayerKnowsIt() {
        noClasses().that().resideOutsideOfPackages("io.paddlejobs.api..", "io.paddlejobs.web..")
                .should().dependOnClassesThat().resideInAnyPackage("io.paddlejobs.api..", "io.paddlejobs.web..")
                .because("api/ and web/ call the service, the features and security; none of them answers a request itself")
                .check(PRODUCTION);
    }

    @Test
    void theWebTuningIsReachedOnlyThroughSpring() {
        noClasses().that().resideOutsideOfPackage("io.paddlejobs.web..")
                .should().dependOnClassesThat().resideInAPackage("io.paddlejobs.web..")
                .because("Tomcat's tuning and the servlet filters are beans Spring installs; no code calls them")
                .check(PRODUCTION);
    }

    @Test
    void theContractCustomizersAreTheApisOwn() {
        noClasses().that().resideOutsideOfPackage("io.paddlejobs.api..")
                .should().dependOnClassesThat().resideInAPackage("io.paddlejobs.api.openapi..")
                .because("how the contract is described is the HTTP layer's business: controllers name its schemas and examples")
                .check(PRODUCTION);
    }

    @Test
    void theRequestAnswerApiKnowsNoStreams() {
        noClasses().that().resideInAnyPackage("io.paddlejobs.api", "io.paddlejobs.api.openapi..")
                .should().dependOnClassesThat().resideInAPackage("io.paddlejobs.api.stream..")
                .because("streams are built on the API's views, URLs and problems, not the other way round")
                .check(PRODUCTION);
    }

    /**
     * The handlers that act in no namespace, each with why: everything else answers only once its
     * {@link InNamespace} argument was checked and authorized.
     */
    private static final Map<String, String> NAMESPACE_LESS_HANDLERS = Map.of(
            "io.paddlejobs.packages.PackageContentController.fetchContent",
            "its signed URL is the credential: the key names the namespace and the package",
            "io.paddlejobs.api.StatusPageController.listPage", "the same page for everyone: its script asks with the token",
            "io.paddlejobs.api.ErrorPageProblems.error", "the container's error page: a request already refused",
            "io.paddlejobs.api.HomeRedirect.home", "a redirect to the jobs page: it reads nothing");

    // Importing only our classes, ArchUnit does not see that @GetMapping and the rest are @RequestMappings.
    private static final DescribedPredicate<JavaMethod> MAP_REQUESTS = DescribedPredicate.describe("map requests",
            method -> Stream.of(RequestMapping.class, GetMapping.class, PostMapping.class, PutMapping.class,
                    PatchMapping.class, DeleteMapping.class).anyMatch(method::isAnnotatedWith));

    @Test
    void everyHandlerIsAuthorizedForItsNamespaceOrNamedAsNeedingNone() {
        methods().that(MAP_REQUESTS).and().areDeclaredInClassesThat().resideInAPackage("io.paddlejobs..")
                .should(new ArchCondition<JavaMethod>("take an @InNamespace argument or be named as needing none") {
                    @Override
                    public void check(JavaMethod method, ConditionEvents events) {
                        boolean inNamespace = method.getParameters().stream()
                                .anyMatch(parameter -> parameter.isAnnotatedWith(InNamespace.class));
                        String name = method.getOwner().getName() + "." + method.getName();
                        if (!inNamespace && !NAMESPACE_LESS_HANDLERS.containsKey(name)) {
                            events.add(SimpleConditionEvent.violated(method, name + " takes no @InNamespace argument"));
                        }
                    }
                })
                .because("a handler that resolves its namespace by hand can forget to; one that acts in none says so here")
                .check(PRODUCTION);
    }

    @Test
    void parametersAreValidatedOneWay() {
        noClasses().that().areAnnotatedWith(RestController.class).or().areAnnotatedWith(Controller.class)
                .should().beAnnotatedWith(Validated.class)
                .because("Spring MVC validates every handler's parameters itself; @Validated would do it a second way,"
                        + " whose violations reach ProblemAdvice as an unexpected error (a 500)")
                .check(PRODUCTION);
    }

    @Test
    void onlyWhatSpeaksKubernetesUsesFabric8() {
        noClasses().that().resideOutsideOfPackages("io.paddlejobs.backend.kubernetes..",
                        "io.paddlejobs.security.kubernetes..", "io.paddlejobs.kubernetes..")
                .should().dependOnClassesThat().resideInAPackage("io.fabric8..")
                .because("the rest of the service knows jobs and callers, not Kubernetes objects")
                .check(PRODUCTION);
    }

    /** Each backend's rooms: Java has no friend packages, so their types are public, and only their backend sees them. */
    private static final Map<String, String[]> BACKEND_ROOMS = Map.of(
            "io.paddlejobs.backend.kubernetes", new String[] {"manifest", "status", "lifecycle", "queue", "cluster"},
            "io.paddlejobs.backend.local", new String[] {"process", "sandbox", "schedule", "record"},
            "io.paddlejobs.backend.slurm", new String[] {"client", "script", "state"});

    @Test
    void nothingOutsideABackendUsesItsRooms() {
        BACKEND_ROOMS.forEach((backend, rooms) -> noClasses().that().resideOutsideOfPackage(backend + "..")
                .should().dependOnClassesThat().resideInAnyPackage(Stream.of(rooms).map(room -> backend + "." + room + "..")
                        .toArray(String[]::new))
                .because("the rest of the service reaches a backend through the JobBackend port, its configuration"
                        + " and its problem types; its rooms are public only because Java has no friend packages")
                .check(PRODUCTION));
    }

    @Test
    void theKubernetesBackendShowsOnlyItsConfigurationAndProblemTypes() {
        noClasses().that().resideOutsideOfPackage("io.paddlejobs.backend.kubernetes..")
                .should().dependOnClassesThat(resideInAPackage("io.paddlejobs.backend.kubernetes..")
                        .and(not(JavaClass.Predicates.simpleNameEndingWith("Exception")))
                        .and(not(CanBeAnnotated.Predicates.annotatedWith(ConfigurationProperties.class))))
                .because("the rest of the service reaches this backend through the JobBackend port only")
                .check(PRODUCTION);
    }

    @Test
    void kubernetesManifestsAndStatusesTalkToNoCluster() {
        noClasses().that().resideInAnyPackage("io.paddlejobs.backend.kubernetes.manifest..",
                        "io.paddlejobs.backend.kubernetes.status..")
                .should().dependOnClassesThat(resideInAPackage("io.fabric8.kubernetes.client..")
                        .and(not(resideInAPackage("io.fabric8.kubernetes.client.utils.."))))
                .because("what a job's objects look like and what its objects mean are pure functions of objects;"
                        + " the cluster's I/O is cluster/'s, queue/'s and lifecycle/'s (fabric8's Serialization in"
                        + " client.utils only copies and prints objects)")
                .check(PRODUCTION);
    }

    /**
     * Where main code may put a thread to sleep or park it, and why: elsewhere a wait is on a condition (a
     * future, a latch, a cache change), never a spin or a sleep of a request's thread.
     */
    private static final Map<String, String> SLEEPS = Map.of(
            "io.paddlejobs.backend.local.process.ProcessGroups", "polls /proc until a replica's process group is gone: the kernel"
                    + " tells a parent of its child's end, never of a group's; bounded by the grace period",
            "io.paddlejobs.backend.local.process.LogFiles", "a log follow polls its file for new lines on its own thread, one per"
                    + " log-follow slot",
            "io.paddlejobs.backend.slurm.script.LogTail", "the same on Slurm's shared file system, where no watch sees another"
                    + " host's writes",
            "io.paddlejobs.metrics.TrainerFollower", "a follower waits on its own thread for its trainer's log to appear"
                    + " (a replica not started yet)");

    /** The pools whose threads are not bounded by their own size, and what bounds them instead. */
    private static final Map<String, String> UNBOUNDED_POOLS = Map.of(
            "io.paddlejobs.api.stream.LogStreams", "a thread per log follow (virtual on JDK 21+): the log-follow slots"
                    + " bound them",
            "io.paddlejobs.metrics.MetricsCollector", "a thread per followed trainer, a blocking read of its log (virtual"
                    + " on JDK 21+): unfinished jobs times paddlejobs.metrics.trainers-followed bound them");

    /** The bounded pools made by hand (a ThreadPoolExecutor), each with the bound it keeps. */
    private static final Map<String, String> BOUNDED_POOLS = Map.of(
            "io.paddlejobs.job.JobFeed", "at most paddlejobs.streams.max-open senders, one per open stream at most",
            "io.paddlejobs.backend.local.ReplicaLauncher", "64 for stops and exits, 8 for spawns; more wait their turn",
            "io.paddlejobs.backend.kubernetes.lifecycle.LifecycleReconciler", "4 looks at once, one per job",
            "io.paddlejobs.backend.kubernetes.cluster.JobCreator", "16 creates at once; more wait their turn");

    @Test
    void noThreadSleepsParksOrGetsAnUnboundedPoolOutsideTheNamedPlaces() {
        classes().that().resideInAPackage("io.paddlejobs..")
                .should(new ArchCondition<JavaClass>("sleep, park or make a pool only where named, with why") {
                    @Override
                    public void check(JavaClass javaClass, ConditionEvents events) {
                        String owner = javaClass.getName().split("\\$")[0];
                        for (JavaCall<?> call : Stream.concat(javaClass.getMethodCallsFromSelf().stream(),
                                javaClass.getConstructorCallsFromSelf().stream()).toList()) {
                            String target = call.getTargetOwner().getName() + "." + call.getName();
                            boolean allowed = switch (target) {
                                case "java.lang.Thread.sleep", "java.util.concurrent.locks.LockSupport.parkNanos",
                                     "java.util.concurrent.locks.LockSupport.park" -> SLEEPS.containsKey(owner);
                                case "java.util.concurrent.Executors.newCachedThreadPool",
                                     "org.springframework.core.task.SimpleAsyncTaskExecutor.<init>" ->
                                        UNBOUNDED_POOLS.containsKey(owner);
                                case "java.util.concurrent.ThreadPoolExecutor.<init>" -> BOUNDED_POOLS.containsKey(owner);
                                default -> true;
                            };
                            if (!allowed) {
                                events.add(SimpleConditionEvent.violated(call, call.getDescription()
                                        + ": wait on a condition, or use a bounded pool, or name the place and why"));
                            }
                        }
                    }
                })
                .because("a request's thread that spins or sleeps, and a pool that grows without bound, are the races"
                        + " that failed CI and the service under load")
                .check(PRODUCTION);
    }
}
