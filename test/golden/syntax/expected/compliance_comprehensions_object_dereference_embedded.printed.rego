package generated

arr := [4]

p contains x if {
	data.generated.q.a = x
}

q[k] := v if {
	k = "a"
	v = {"bar": y | i = {"foo": z | z = data.generated.arr[_]}; i[_] = _; i = y}
}
