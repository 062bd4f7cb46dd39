module editkit/tests/goja

go 1.25.0

require (
	github.com/dop251/goja v0.0.0-20260311135729-065cd970411c
	github.com/dop251/goja_nodejs v0.0.0-20260212111938-1f56ff5bcf14
)

require (
	github.com/dlclark/regexp2 v1.12.0 // indirect
	github.com/dop251/base64dec v0.0.0-20231022112746-c6c9f9a96217 // indirect
	github.com/go-sourcemap/sourcemap v2.1.4+incompatible // indirect
	github.com/google/pprof v0.0.0-20250607225305-033d6d78b36a // indirect
	golang.org/x/net v0.27.0 // indirect
	golang.org/x/text v0.40.0 // indirect
)
