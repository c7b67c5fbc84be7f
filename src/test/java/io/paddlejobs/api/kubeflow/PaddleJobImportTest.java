package io.paddlejobs.api.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.paddlejobs.testing.KubeflowExamples;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** Kubeflow PaddleJob manifests, field by field: carried, dropped with a reason, or refused with one. */
class PaddleJobImportTest {

    static Object manifest(String name) {
        return yaml(KubeflowExamples.read(name));
    }

    private static Object yaml(String text) {
        return new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    }

    private static List<String> fields(List<PaddleJobImport.Note> notes) {
        return notes.stream().map(PaddleJobImport.Note::field).toList();
    }

    @Test
    void kubeflowsCollectiveExampleBecomesACollectiveJobOfTwoTrainers() {
        PaddleJobImport.Result result = PaddleJobImport.of(manifest("collective.yaml"));

        assertThat(result.refused()).isEmpty();
        assertThat(result.request()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "name", "paddle-simple-cpu", "queue", "user-queue", "mode", "collective", "trainers", 2,
                "image", "registry.baidubce.com/paddlepaddle/paddle:2.4.0rc0-cpu",
                "entry_point", "python -m paddle.distributed.launch run_check", "port", 37777));
        assertThat(fields(result.dropped())).contains("metadata.namespace",
                "spec.paddleReplicaSpecs.Worker.restartPolicy",
                "spec.paddleReplicaSpecs.Worker.template.spec.containers[0].imagePullPolicy",
                "spec.paddleReplicaSpecs.Worker.template.spec.containers[0].volumeMounts[0]");
        assertThat(result.dropped()).allSatisfy(note -> assertThat(note.reason()).isNotBlank());
        assertThat(result.carried()).extracting(PaddleJobImport.Note::to)
                .contains("name", "queue", "trainers", "image", "entry_point", "port");
    }

    @Test
    void aParameterServerJobCarriesItsRolesSecretsPlacementAndRunPolicy() {
        PaddleJobImport.Result result = PaddleJobImport.of(manifest("ps.yaml"));

        assertThat(result.refused()).isEmpty();
        Map<String, Object> request = result.request();
        assertThat(request).containsEntry("mode", "ps").containsEntry("pservers", 2).containsEntry("trainers", 3)
                .containsEntry("entry_point", "python train.py '--lr='\"${LR}\"")
                .doesNotContainKey("pserver_entry_point").doesNotContainKey("pserver_image")
                .containsEntry("env", Map.of("LR", "0.01"))
                .containsEntry("trainer_env", Map.of("ROLE_NOTE", "trainer"))
                .containsEntry("pserver_env", Map.of("ROLE_NOTE", "server"))
                .containsEntry("env_from_secrets", Map.of("AWS_SECRET_ACCESS_KEY", Map.of("secret", "s3", "key", "secret")))
                .containsEntry("trainer_cpu", 2).containsEntry("trainer_mem", "4Gi")
                .containsEntry("pserver_cpu", 2).containsEntry("pserver_mem", "2Gi")
                .containsEntry("node_selector", Map.of("pool", "cpu"))
                .containsEntry("tolerations", List.of(Map.of("key", "dedicated", "operator", "Equal",
                        "value", "training", "effect", "NoSchedule")))
                .containsEntry("volumes", List.of(Map.of("claim", "ctr-data", "mount_path", "/mnt/ctr")))
                .containsEntry("max_restarts", 2).containsEntry("max_run_time", "3600s")
                .containsEntry("labels", Map.of("team", "ads"));
        assertThat(fields(result.dropped())).contains("spec.runPolicy.cleanPodPolicy",
                "spec.paddleReplicaSpecs.Worker.template.spec.containers[0].command (paddle.distributed.launch)",
                "spec.runPolicy.ttlSecondsAfterFinished",
                "spec.paddleReplicaSpecs.Master.template.spec.containers[0].resources.cpu(fraction)");
    }

    @Test
    void whatCannotBeHonouredIsRefusedByItsPathWithTheReason() {
        PaddleJobImport.Result result = PaddleJobImport.of(yaml("""
                apiVersion: kubeflow.org/v1
                kind: PaddleJob
                metadata: {name: bad}
                spec:
                  elasticPolicy: {minReplicas: 1}
                  runPolicy: {suspend: true}
                  paddleReplicaSpecs:
                    Worker:
                      replicas: 1
                      template:
                        spec:
                          hostNetwork: true
                          containers:
                            - name: paddle
                              image: paddle:2
                              command: [python, train.py]
                              workingDir: /workspace
                              envFrom: [{secretRef: {name: s3}}]
                              env:
                                - name: NODE
                                  valueFrom: {fieldRef: {fieldPath: spec.nodeName}}
                              volumeMounts: [{name: out, mountPath: /out}]
                          volumes: [{name: out, persistentVolumeClaim: {claimName: results}}]
                """));

        assertThat(fields(result.refused())).containsExactlyInAnyOrder("spec.elasticPolicy", "spec.runPolicy.suspend",
                "spec.paddleReplicaSpecs.Worker.template.spec.hostNetwork",
                "spec.paddleReplicaSpecs.Worker.template.spec.containers[0].workingDir",
                "spec.paddleReplicaSpecs.Worker.template.spec.containers[0].envFrom",
                "spec.paddleReplicaSpecs.Worker.template.spec.containers[0].env[0].valueFrom",
                "spec.paddleReplicaSpecs.Worker.template.spec.containers[0].volumeMounts[0]");
        assertThat(result.refused()).allSatisfy(note -> assertThat(note.reason()).isNotBlank());
    }

    @Test
    void rolesPlacedDifferentlyAndOtherKindsAreRefused() {
        PaddleJobImport.Result result = PaddleJobImport.of(yaml("""
                apiVersion: kubeflow.org/v1
                kind: PaddleJob
                metadata: {name: split}
                spec:
                  paddleReplicaSpecs:
                    Master:
                      template: {spec: {nodeSelector: {pool: a}, containers: [{name: paddle, command: [python, ps.py]}]}}
                    Worker:
                      template: {spec: {nodeSelector: {pool: b}, containers: [{name: paddle, command: [python, t.py]}]}}
                """));
        assertThat(fields(result.refused())).containsExactly("spec.paddleReplicaSpecs.Master.template.spec.nodeSelector");
        assertThat(result.request()).containsEntry("pserver_entry_point", "python ps.py");

        assertThat(fields(PaddleJobImport.of(yaml("{apiVersion: kubeflow.org/v1, kind: PyTorchJob, spec: {}}")).refused()))
                .contains("kind", "spec.paddleReplicaSpecs");
    }

    @Test
    void kubernetesReferencesStayReferencesAndEveryOtherCharacterIsLiteral() {
        assertThat(ShellWords.join(List.of("sh", "-c", "echo $(A) $$(B) it's"))).isEqualTo(
                "sh -c 'echo '\"${A}\"' ''$''(B) it'\\''s'");
    }
}
