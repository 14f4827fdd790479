# METADATA
# scope: package
# compile:
#   unknowns: [input.documents]
#   mask_rule: masks
package documents

# Admins read every document of their tenant.
include if {
	input.documents.tenant == user.tenant
	user.role == "admin"
}

# Everyone reads their own documents, and their team's that are not drafts.
include if {
	input.documents.tenant == user.tenant
	input.documents.owner == input.user
}

include if {
	input.documents.tenant == user.tenant
	input.documents.owner in data.teams[user.team]
	not input.documents.draft == true
}

user := data.users[input.user]

# Only admins see who a document's reviewer is.
masks.documents.reviewer := {"replace": {"value": "***"}} if user.role != "admin"
