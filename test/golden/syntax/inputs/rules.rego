# Every kind of rule.
package golden.rules

import data.lib.helpers
import input.request as req

default allow := false

allow if {
	req.method == "GET"
	helpers.is_admin(req.user)
}

deny contains msg if {
	some name in req.names
	msg := sprintf("bad name %s", [name])
}

roles[user] := role if {
	some user, role in data.roles
}

limits.max.requests := 100

f(x, y) := x + y

g(x) := "small" if {
	x < 10
} else := "big"

h(_) := 1 if { false } { true }

p.q[r] if r := "dynamic"
