package generated

p contains x if {
	__local0__ = data.obj_ref_missing_key
	obj = {"a": {"x": 1, "y": 2}, "b": __local0__, "c": {"x": 2, "y": 2}}
	obj[_] = {"x": x, "y": 2}
}
