package generated

p contains x if {
	__local0__ = [k | data.generated.q[k] = _]
	count(__local0__, x)
}

q[k] := v if {
	data.b[k] = v
}
