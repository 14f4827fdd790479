# Tests of policies/authz.rego: `regoc test policies/` (or `opa test policies/`).
package authz_test

import data.authz

perms := {
	"alice": [{"action": "read", "resource": "documents"}],
	"bob": [{"action": "read", "resource": "reports"}],
}

# admin, any method/path → allow

test_admin_allowed if {
	authz.allow with input as {"user": {"id": "root", "role": "admin"}, "action": "delete", "resource": {"type": "documents", "owner_id": "alice"}}
}

test_admin_allowed_without_resource if {
	authz.allow with input as {"user": {"id": "root", "role": "admin"}}
}

test_admin_allowed_any_action if {
	every action in ["read", "create", "update", "delete", "anything"] {
		authz.allow with input as {"user": {"role": "admin"}, "action": action, "resource": {"type": "x", "owner_id": "y"}}
	}
}

test_role_is_case_sensitive if {
	not authz.allow with input as {"user": {"id": "eve", "role": "Admin"}, "action": "read", "resource": {"type": "documents", "owner_id": "alice"}}
}

# owner == user → allow

test_owner_allowed if {
	authz.allow with input as {"user": {"id": "bob", "role": "user"}, "action": "delete", "resource": {"type": "documents", "owner_id": "bob"}}
		with data.permissions as {}
}

# other owner, no permission → deny

test_other_owner_no_permission_denied if {
	not authz.allow with input as {"user": {"id": "bob", "role": "user"}, "action": "delete", "resource": {"type": "documents", "owner_id": "alice"}}
		with data.permissions as perms
}

test_decision_is_false_not_undefined if {
	authz.allow == false with input as {"user": {"id": "bob"}, "resource": {"owner_id": "alice"}}
}

# matching data.permissions[user.id] → allow

test_permission_allowed if {
	authz.allow with input as {"user": {"id": "alice", "role": "user"}, "action": "read", "resource": {"type": "documents", "owner_id": "bob"}}
		with data.permissions as perms
}

test_permission_wrong_action_denied if {
	not authz.allow with input as {"user": {"id": "alice", "role": "user"}, "action": "delete", "resource": {"type": "documents", "owner_id": "bob"}}
		with data.permissions as perms
}

test_permission_wrong_type_denied if {
	not authz.allow with input as {"user": {"id": "alice", "role": "user"}, "action": "read", "resource": {"type": "reports", "owner_id": "bob"}}
		with data.permissions as perms
}

test_permission_of_other_user_denied if {
	not authz.allow with input as {"user": {"id": "carol", "role": "user"}, "action": "read", "resource": {"type": "reports", "owner_id": "bob"}}
		with data.permissions as perms
}

test_permissions_from_data_json if {
	authz.allow with input as {"user": {"id": "alice"}, "action": "update", "resource": {"type": "documents", "owner_id": "bob"}}
}

# missing fields → deny

test_missing_user_denied if {
	not authz.allow with input as {"action": "read", "resource": {"type": "documents", "owner_id": "alice"}}
}

test_missing_ids_do_not_match if {
	# neither user.id nor resource.owner_id: undefined never equals undefined
	not authz.allow with input as {"user": {"role": "user"}, "action": "read", "resource": {"type": "documents"}}
}

test_missing_owner_denied if {
	not authz.allow with input as {"user": {"id": "bob", "role": "user"}, "action": "read", "resource": {"type": "documents"}}
		with data.permissions as perms
}

test_missing_action_denied if {
	not authz.allow with input as {"user": {"id": "alice", "role": "user"}, "resource": {"type": "documents", "owner_id": "bob"}}
		with data.permissions as perms
}

test_missing_permissions_data_denied if {
	not authz.allow with input as {"user": {"id": "alice", "role": "user"}, "action": "read", "resource": {"type": "documents", "owner_id": "bob"}}
		with data.permissions as null
}

test_empty_input_denied if {
	not authz.allow with input as {}
}

# the helper

test_check_role if {
	authz.check_role("admin") with input as {"user": {"role": "admin"}}
	not authz.check_role("admin") with input as {"user": {"role": "user"}}
	not authz.check_role("admin") with input as {}
}
