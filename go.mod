module github.com/pirdrr/drr

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/stretchr/testify v1.12.1
	golang.org/x/tools v0.52.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
