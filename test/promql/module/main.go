// Command promql-check parses PromQL expressions with Prometheus' own parser (promql/parser), one JSON string per
// line on stdin, and prints one line per expression: "ok" or "error: <parser message>". HelmChartTest's sibling
// MonitoringQueriesTest feeds it every alert and dashboard expression of config/prometheus and config/grafana.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/prometheus/prometheus/promql/parser"
)

func main() {
	p := parser.NewParser(parser.Options{})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var expr string
		if err := json.Unmarshal(in.Bytes(), &expr); err != nil {
			fmt.Printf("error: input line is not a JSON string: %v\n", err)
			continue
		}
		if _, err := p.ParseExpr(expr); err != nil {
			fmt.Printf("error: %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
		} else {
			fmt.Println("ok")
		}
	}
}
