package schema

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/tinylib/msgp/msgp"
	"sigs.k8s.io/randfill"
)

// checkEncoding fills each type with random values, nil pointers and
// slices and empty strings among them, and compares what its MarshalMsg
// writes with refEncode, which writes the same schema by reflection the
// way msgp's generated code did before encgen: so the compact methods
// change no byte a host reads. The generated *_enc_test.go files call it
// with every type of their schema file.
func checkEncoding(t *testing.T, types []msgp.Marshaler) {
	t.Helper()
	f := randfill.NewWithSeed(18).NilChance(0.3).NumElements(0, 3)
	for _, typ := range types {
		name := reflect.TypeOf(typ).Elem().Name()
		for i := range 40 {
			v := reflect.New(reflect.TypeOf(typ).Elem())
			f.Fill(v.Interface())
			if i%4 == 0 {
				emptyStrings(v.Elem())
			}
			got, err := v.Interface().(msgp.Marshaler).MarshalMsg([]byte{0xc0})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want := refEncode([]byte{0xc0}, v.Elem())
			if !bytes.Equal(got, want) {
				t.Fatalf("%s %+v:\n got %x\nwant %x", name, v.Elem().Interface(), got, want)
			}
		}
	}
}

// emptyStrings sets the string fields of struct v to "", so that omitted
// keys are exercised as often as written ones.
func emptyStrings(v reflect.Value) {
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.String && f.CanSet() {
			f.SetString("")
		}
	}
}

var rawType = reflect.TypeFor[Raw]()

// refEncode appends struct v as a map of its msg-tagged fields in
// declaration order; omitempty leaves out a field whose value is zero
// (an empty string, false, a nil pointer or slice).
func refEncode(b []byte, v reflect.Value) []byte {
	type kv struct {
		key string
		v   reflect.Value
	}
	var keys []kv
	for i := range v.NumField() {
		sf := v.Type().Field(i)
		if sf.Name == "_" {
			continue
		}
		key, opt, _ := strings.Cut(sf.Tag.Get("msg"), ",")
		if opt == "omitempty" && v.Field(i).IsZero() {
			continue
		}
		keys = append(keys, kv{key, v.Field(i)})
	}
	b = msgp.AppendMapHeader(b, uint32(len(keys)))
	for _, k := range keys {
		b = refValue(msgp.AppendString(b, k.key), k.v)
	}
	return b
}

// refValue appends one value of the schema.
func refValue(b []byte, v reflect.Value) []byte {
	if v.Type() == rawType {
		if v.Len() == 0 {
			return msgp.AppendNil(b)
		}
		return append(b, v.Bytes()...)
	}
	switch v.Kind() {
	case reflect.String:
		return msgp.AppendString(b, v.String())
	case reflect.Bool:
		return msgp.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return msgp.AppendInt64(b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return msgp.AppendUint64(b, v.Uint())
	case reflect.Float64:
		return msgp.AppendFloat64(b, v.Float())
	case reflect.Pointer:
		if v.IsNil() {
			return msgp.AppendNil(b)
		}
		return refValue(b, v.Elem())
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return msgp.AppendBytes(b, v.Bytes())
		}
		b = msgp.AppendArrayHeader(b, uint32(v.Len()))
		for i := range v.Len() {
			b = refValue(b, v.Index(i))
		}
		return b
	case reflect.Struct:
		return refEncode(b, v)
	}
	panic("refValue: no encoding for " + v.Type().String())
}
