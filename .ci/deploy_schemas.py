"""kubernetes-validate's strict schema of each kind the rendered manifests hold, made standalone for
kubeconform: its "$ref"s into the shared definitions file point into its own "$defs", which get every
definition it reaches (kubeconform cannot follow a reference to another file).

    python deploy_schemas.py KUBERNETES_VERSION OUT_DIR RENDERED.yaml...
"""
import json
import pathlib
import sys

import kubernetes_validate
import yaml

# How a kind's schema refers to a definition, and how the definitions refer to each other.
PREFIXES = ("/api/_definitions.json#/$defs/", "#/$defs/")


def main(version, out, manifests):
    root = pathlib.Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema" / ("v%s-local-strict" % version)
    definitions = json.loads((root / "_definitions.json").read_text())["$defs"]

    def local(node, reached):
        if isinstance(node, dict):
            ref = node.get("$ref")
            prefix = next((p for p in PREFIXES if isinstance(ref, str) and ref.startswith(p)), None)
            if prefix is not None:
                name = ref[len(prefix):]
                if name not in reached:
                    reached[name] = {}
                    reached[name] = local(definitions[name], reached)
                return dict(node, **{"$ref": "#/$defs/" + name})
            return {key: local(value, reached) for key, value in node.items()}
        if isinstance(node, list):
            return [local(value, reached) for value in node]
        return node

    out.mkdir(parents=True, exist_ok=True)
    for manifest in manifests:
        for doc in yaml.safe_load_all(pathlib.Path(manifest).read_text()):
            group, _, api = doc["apiVersion"].rpartition("/")
            name = "%s-%s%s.json" % (doc["kind"].lower(), group.split(".")[0] + "-" if group else "", api)
            if (out / name).exists():
                continue
            reached = {}
            schema = local(json.loads((root / name).read_text()), reached)
            schema.pop("$id", None)  # its base would be a URL kubeconform cannot reach
            schema["$defs"] = reached
            (out / name).write_text(json.dumps(schema))


if __name__ == "__main__":
    main(sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3:])
