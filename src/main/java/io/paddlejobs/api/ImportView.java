package io.paddlejobs.api;

import io.paddlejobs.api.kubeflow.PaddleJobImport;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The answer to an import: the request the manifest became, what of the manifest it carries and what
 * it dropped (and why), and the submit's own answer (the job, or with dry_run the plan).
 */
@Schema(name = "ImportResult", description = "A Kubeflow PaddleJob imported: the request it became, its fields carried"
        + " and dropped, and the submit's answer")
record ImportView(
        @Schema(description = "Always Import", requiredMode = Schema.RequiredMode.REQUIRED, allowableValues = "Import")
        String kind,
        @Schema(description = "The request the manifest became, as POST /jobs takes it",
                requiredMode = Schema.RequiredMode.REQUIRED)
        JobRequestBody request,
        @Schema(description = "Each manifest field carried, and the request field it went to",
                requiredMode = Schema.RequiredMode.REQUIRED)
        List<ImportedField> carried,
        @Schema(description = "Each manifest field left out, and why leaving it out is safe",
                requiredMode = Schema.RequiredMode.REQUIRED)
        List<ImportedField> dropped,
        @Schema(description = "The submit's answer: the job (kind Job), or with dry_run the plan (kind DryRun)",
                requiredMode = Schema.RequiredMode.REQUIRED,
                ref = "#/components/schemas/" + io.paddlejobs.api.openapi.ContractSchemas.SUBMIT_RESULT)
        Object result) {

    @Schema(name = "ImportedField", description = "A manifest field and what the import did with it")
    record ImportedField(
            @Schema(description = "The manifest field, as a path such as spec.runPolicy.cleanPodPolicy",
                    requiredMode = Schema.RequiredMode.REQUIRED)
            String field,
            @Schema(description = "The request field it went to (carried)")
            String to,
            @Schema(description = "Why it was left out (dropped)")
            String reason) {

        static List<ImportedField> of(List<PaddleJobImport.Note> notes) {
            return notes.stream().map(n -> new ImportedField(n.field(), n.to(), n.reason())).toList();
        }
    }

    static ImportView of(JobRequestBody request, PaddleJobImport.Result report, Object result) {
        return new ImportView("Import", request, ImportedField.of(report.carried()), ImportedField.of(report.dropped()),
                result);
    }
}
