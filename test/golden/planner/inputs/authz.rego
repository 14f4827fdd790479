# entrypoints: authz/allow
package authz

default allow := false

allow if input.user.role == "admin"

allow if {
	some grant in data.grants[input.user.name]
	grant.action == input.action
}
