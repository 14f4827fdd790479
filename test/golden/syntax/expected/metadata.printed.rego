# METADATA
# scope: package
# title: Golden metadata
# description: Package-level annotations.
# authors:
#   - name: Jane Doe
#     email: jane@example.com
package golden.metadata

# METADATA
# scope: document
# title: Allow
# entrypoint: true
# related_resources:
#   - ref: https://example.com/policy
# custom:
#   severity: high
#   tags:
#     - a
#     - b
allow if {
	input.user == "admin"
}
