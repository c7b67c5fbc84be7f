//go:build tools

// Keeps Volcano's API types in go.mod: controller-gen reads them as packages of this module.
package tools

import _ "volcano.sh/apis/pkg/apis/scheduling/v1beta1"
