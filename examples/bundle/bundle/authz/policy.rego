package authz

default allow := false

allow if input.user in data.authz.admins
