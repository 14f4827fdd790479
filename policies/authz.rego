# Resource authorization: who may act on a resource.
#
# input: {user: {id, role}, action, resource: {type, owner_id}, ...}
# data:  {permissions: {<user id>: [{action, resource}]}}
#
# Allowed when the user is an admin, owns the resource, or holds a permission for the action on
# the resource's type. Anything else — including missing fields — is denied: every rule below
# needs its fields to be present, and `default allow := false` makes the decision always defined.
package authz

default allow := false

# Admins may do anything.
allow if check_role("admin")

# Owners may act on their own resources. Both sides must be present: a missing id never matches.
allow if input.user.id == input.resource.owner_id

# Explicit grants: data.permissions[<user id>] lists {action, resource} pairs, where `resource`
# is a resource type.
allow if {
	some grant in data.permissions[input.user.id]
	grant.action == input.action
	grant.resource == input.resource.type
}

# True when the user has the given role.
check_role(role) if input.user.role == role
