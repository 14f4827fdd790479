# query: data.ext = x
package ext

p := 1

q.r := 2

s contains "t"
