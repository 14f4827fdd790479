# Comprehensions: the users (objects) of input.users counted per department, and the admins' names.
package stats

users := [u | some u in input.users; is_object(u)]

departments := {d | some u in users; d := u.dept; is_string(d)}

by_department := {d: count([u | some u in users; u.dept == d]) | some d in departments}

admins := {name | some u in users; u.role == "admin"; name := u.name; is_string(name)}

summary := {"total": count(users), "by_department": by_department, "admins": admins}
