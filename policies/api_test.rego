# Tests of policies/api.rego: `regoc test policies/` (or `opa test policies/`).
package api_test

import data.api

perms := {"user": [{"resource": "reports", "action": "read"}]}

# A request under the composed rule: role "user" reading reports, at `time`, with `count` requests.
composed(id, time) := {"user": {"id": id, "role": "user"}, "resource": "reports", "action": "read", "time": time}

# GET /users

test_get_users_authenticated_allowed if {
	api.allow with input as {"method": "GET", "path": ["users"], "user": {"authenticated": true}}
}

test_get_users_unauthenticated_denied if {
	not api.allow with input as {"method": "GET", "path": ["users"], "user": {"authenticated": false}}
}

test_get_users_missing_user_denied if {
	not api.allow with input as {"method": "GET", "path": ["users"]}
}

test_get_users_authenticated_must_be_true if {
	not api.allow with input as {"method": "GET", "path": ["users"], "user": {"authenticated": "yes"}}
}

test_post_users_denied if {
	not api.allow with input as {"method": "POST", "path": ["users"], "user": {"authenticated": true}}
}

# GET /users/<id>

test_get_own_user_allowed if {
	api.allow with input as {"method": "GET", "path": ["users", "bob"], "user": {"id": "bob", "role": "user"}}
}

test_get_other_user_non_admin_denied if {
	not api.allow with input as {"method": "GET", "path": ["users", "alice"], "user": {"id": "bob", "role": "user"}}
}

test_get_other_user_admin_allowed if {
	api.allow with input as {"method": "GET", "path": ["users", "alice"], "user": {"id": "root", "role": "admin"}}
}

test_get_user_missing_id_denied if {
	not api.allow with input as {"method": "GET", "path": ["users", "alice"], "user": {"role": "user"}}
}

test_get_user_deeper_path_denied if {
	not api.allow with input as {"method": "GET", "path": ["users", "bob", "secrets"], "user": {"id": "bob", "role": "admin"}}
}

test_delete_other_user_as_admin_denied if {
	not api.allow with input as {"method": "DELETE", "path": ["users", "alice"], "user": {"id": "root", "role": "admin"}}
}

# POST /orders: authenticated and within business hours

test_post_orders_at_10_allowed if {
	api.allow with input as {"method": "POST", "path": ["orders"], "user": {"authenticated": true}, "time": 10}
}

test_post_orders_at_22_denied if {
	not api.allow with input as {"method": "POST", "path": ["orders"], "user": {"authenticated": true}, "time": 22}
}

test_post_orders_unauthenticated_denied if {
	not api.allow with input as {"method": "POST", "path": ["orders"], "user": {"authenticated": false}, "time": 10}
}

test_post_orders_without_time_denied if {
	not api.allow with input as {"method": "POST", "path": ["orders"], "user": {"authenticated": true}}
}

test_post_orders_hour_boundaries if {
	every hour in [9, 18] {
		api.allow with input as {"method": "POST", "path": ["orders"], "user": {"authenticated": true}, "time": hour}
	}
	every hour in [8, 19] {
		not api.allow with input as {"method": "POST", "path": ["orders"], "user": {"authenticated": true}, "time": hour}
	}
}

# the composed rule: check_permission, rate_limit_ok, business_hours

test_composed_allowed if {
	api.allow with input as composed("u1", 10) with data.permissions as perms with data.rate_limits as {}
}

test_composed_count_100_allowed if {
	api.allow with input as composed("u1", 10) with data.permissions as perms with data.rate_limits as {"u1": {"count": 100}}
}

test_composed_count_101_denied if {
	not api.allow with input as composed("u1", 10) with data.permissions as perms with data.rate_limits as {"u1": {"count": 101}}
}

test_composed_rate_limits_from_data_json if {
	api.allow with input as composed("carol", 10)
	not api.allow with input as composed("dave", 10)
}

test_composed_other_users_count_ignored if {
	api.allow with input as composed("u1", 10) with data.permissions as perms with data.rate_limits as {"u2": {"count": 500}}
}

test_composed_time_8_denied if {
	not api.allow with input as composed("u1", 8) with data.permissions as perms with data.rate_limits as {}
}

test_composed_time_9_allowed if {
	api.allow with input as composed("u1", 9) with data.permissions as perms with data.rate_limits as {}
}

test_composed_time_18_allowed if {
	api.allow with input as composed("u1", 18) with data.permissions as perms with data.rate_limits as {}
}

test_composed_time_19_denied if {
	not api.allow with input as composed("u1", 19) with data.permissions as perms with data.rate_limits as {}
}

test_composed_time_as_string if {
	api.allow with input as composed("u1", "9") with data.permissions as perms with data.rate_limits as {}
	api.allow with input as composed("u1", "18") with data.permissions as perms with data.rate_limits as {}
	not api.allow with input as composed("u1", "8") with data.permissions as perms with data.rate_limits as {}
	not api.allow with input as composed("u1", "19") with data.permissions as perms with data.rate_limits as {}
}

test_composed_time_not_a_number_denied if {
	not api.allow with input as composed("u1", "nine") with data.permissions as perms with data.rate_limits as {}
	not api.allow with input as composed("u1", null) with data.permissions as perms with data.rate_limits as {}
	not api.allow with input as composed("u1", [10]) with data.permissions as perms with data.rate_limits as {}
}

test_composed_missing_time_denied if {
	not api.allow with input as {"user": {"id": "u1", "role": "user"}, "resource": "reports", "action": "read"}
		with data.permissions as perms
		with data.rate_limits as {}
}

test_composed_wrong_action_denied if {
	not api.allow with input as {"user": {"id": "u1", "role": "user"}, "resource": "reports", "action": "delete", "time": 10}
		with data.permissions as perms
		with data.rate_limits as {}
}

test_composed_wrong_resource_denied if {
	not api.allow with input as {"user": {"id": "u1", "role": "user"}, "resource": "orders", "action": "read", "time": 10}
		with data.permissions as perms
		with data.rate_limits as {}
}

test_composed_missing_role_denied if {
	not api.allow with input as {"user": {"id": "u1"}, "resource": "reports", "action": "read", "time": 10}
		with data.permissions as perms
		with data.rate_limits as {}
}

test_composed_missing_user_id_not_rate_limited if {
	# no id: no rate-limit entry can match, so the limit does not apply
	api.allow with input as {"user": {"role": "user"}, "resource": "reports", "action": "read", "time": 10}
		with data.permissions as perms
		with data.rate_limits as {}
}

test_composed_missing_count_allowed if {
	api.allow with input as composed("u1", 10) with data.permissions as perms with data.rate_limits as {"u1": {}}
}

# the helpers, directly

test_rate_limit_boundary if {
	api.rate_limit_ok with input as {"user": {"id": "u"}} with data.rate_limits as {"u": {"count": 100}}
	not api.rate_limit_ok with input as {"user": {"id": "u"}} with data.rate_limits as {"u": {"count": 101}}
}

test_business_hours_boundaries if {
	not api.business_hours with input as {"time": 8}
	api.business_hours with input as {"time": 9}
	api.business_hours with input as {"time": 18}
	not api.business_hours with input as {"time": 19}
	api.business_hours with input as {"time": "9"}
	not api.business_hours with input as {}
}

test_empty_input_denied if {
	not api.allow with input as {}
}
