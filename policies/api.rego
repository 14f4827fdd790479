# HTTP API authorization.
#
# input: {method, path: [segments], user: {id, role, authenticated}, action, resource, time, ...}
#   (as regoc/express builds it: `path` is split on "/", `time` is the current hour 0–23)
# data:  {permissions: {<role>: [{resource, action}]}, rate_limits: {<user id>: {count}}}
#
# `authenticated` must be the boolean true: a string such as "yes" does not authenticate.
#
# Business hours: POST /orders is allowed only within business hours (9 to 18 inclusive), like
# the composed rule. The specification's own policy test expects a POST at hour 22 to be denied,
# which a rule checking authentication alone could not give; this policy follows that test.
package api

default allow := false

# Any authenticated user may list users.
allow if {
	input.method == "GET"
	input.path == ["users"]
	input.user.authenticated == true
}

# A user may read their own record.
allow if {
	input.method == "GET"
	some id
	input.path = ["users", id]
	input.user.id == id
}

# Admins may read any user's record.
allow if {
	input.method == "GET"
	input.path = ["users", _]
	input.user.role == "admin"
}

# Authenticated users may place orders, within business hours (see the note at the top).
allow if {
	input.method == "POST"
	input.path == ["orders"]
	input.user.authenticated == true
	business_hours
}

# The composed rule: a permission for the user's role, under the rate limit, within business hours.
allow if {
	check_permission
	rate_limit_ok
	business_hours
}

# Some grant of data.permissions[<role>] matches the requested resource and action.
check_permission if {
	some grant in data.permissions[input.user.role]
	grant.resource == input.resource
	grant.action == input.action
}

# At most 100 requests: a count of 100 passes, 101 fails. No count recorded passes.
# The negation is of a helper rule: `not data.rate_limits[input.user.id].count > 100` would not
# pass without a count, since OPA evaluates the comparison's operand before the `not` (and
# `regoc check` warns of it). The helper names the condition, and unlike `not { ... }` it needs
# no `import future.keywords.not`, so the policy runs on every OPA 1.x.
rate_limit_ok if not over_rate_limit

over_rate_limit if data.rate_limits[input.user.id].count > 100

# input.time is the hour (0–23), a number or a numeric string ("9"); 9 to 18 inclusive.
# A missing or non-numeric time is never within business hours.
business_hours if {
	hour := to_number(input.time)
	hour >= 9
	hour <= 18
}
