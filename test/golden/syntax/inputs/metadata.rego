# METADATA
# title: Golden metadata
# description: Package-level annotations.
# authors:
# - Jane Doe <jane@example.com>
package golden.metadata

# a plain comment

# METADATA
# title: Allow
# entrypoint: true
# related_resources:
# - https://example.com/policy
# custom:
#   severity: high
#   tags: [a, b]
allow if {
	input.user == "admin" # trailing comment
}
