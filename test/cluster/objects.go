//go:build linux

package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Objects decodes a multi-document YAML stream (helm template, kubectl
// kustomize) into objects keyed by kind/namespace/name, normalized so that
// two renderings of the same objects compare equal with reflect.DeepEqual.
// The chart and the kustomize install must agree on all of each object:
// images, arguments, environment, ports, volumes, security contexts, RBAC
// rules.
func Objects(stream string) (map[string]any, error) {
	dec := yaml.NewDecoder(strings.NewReader(stream))
	out := map[string]any{}
	for {
		var o map[string]any
		if err := dec.Decode(&o); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, fmt.Errorf("decode YAML stream: %w", err)
		}
		if o == nil {
			continue
		}
		md, _ := o["metadata"].(map[string]any)
		key := fmt.Sprintf("%v/%v/%v", o["kind"], md["namespace"], md["name"])
		out[key] = normalize(o)
	}
}

// MustObjects is Objects for a test, which fails on a stream that does not
// decode; what names the stream in the failure.
func MustObjects(t testing.TB, what, stream string) map[string]any {
	t.Helper()
	objs, err := Objects(stream)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return objs
}

// normalize drops what only one side sets by its nature, the pull policy
// the chart makes explicit (the default for a tagged image is the same), and
// sorts lists of objects (containers, volumes, mounts, env, ports, rules):
// the API treats them as sets, and kustomize's patches reorder them.
// Lists of strings, such as args, keep their order.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, e := range x {
			if k == "imagePullPolicy" {
				continue
			}
			m[k] = normalize(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = normalize(e)
		}
		sort.SliceStable(l, func(i, j int) bool {
			a, aok := l[i].(map[string]any)
			b, bok := l[j].(map[string]any)
			return aok && bok && sortKey(a) < sortKey(b)
		})
		return l
	}
	return v
}

func sortKey(m map[string]any) string {
	for _, k := range []string{"name", "mountPath"} {
		if v, ok := m[k]; ok {
			return fmt.Sprint(v)
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// CompareObjects lists, one message each, the objects only one of two
// renderings has and those that differ, with both sides in YAML; the sides
// are named in the messages.
func CompareObjects(wantName string, want map[string]any, gotName string, got map[string]any) []string {
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var diffs []string
	for _, k := range keys {
		w, ok1 := want[k]
		g, ok2 := got[k]
		switch {
		case !ok2:
			diffs = append(diffs, fmt.Sprintf("the %s has %s, the %s does not", wantName, k, gotName))
		case !ok1:
			diffs = append(diffs, fmt.Sprintf("the %s has %s, the %s does not", gotName, k, wantName))
		case !reflect.DeepEqual(w, g):
			wb, _ := yaml.Marshal(w)
			gb, _ := yaml.Marshal(g)
			diffs = append(diffs, fmt.Sprintf("%s differs\n--- %s\n%s\n--- %s\n%s", k, wantName, wb, gotName, gb))
		}
	}
	return diffs
}
