package mmv_test

import (
	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
)

var (
	unitsCount = pcp.NewUnits(0, 0, 1, 0, 0, 0)
	unitsUsec  = pcp.NewUnits(0, 1, 0, 0, pcp.TimeUSec, 0)
	unitsMBps  = pcp.NewUnits(1, -1, 0, pcp.SpaceMByte, pcp.TimeSec, 0)
)

// sampleRegistry has every type, an indom with help, help texts and,
// for version 3, labels at every level. long adds a name of 64 bytes.
func sampleRegistry(version int32, long bool) *mmv.Registry {
	reg := &mmv.Registry{
		Version: version,
		Cluster: 321,
		Process: 4242,
		Gen:     0x5f5e100_00001234,
		Indoms: []mmv.IndomDef{{
			Serial:    7,
			Instances: []mmv.InstanceDef{{ID: 1, Name: "red"}, {ID: 2, Name: "green"}, {ID: -3, Name: "blue"}},
			ShortText: "colours",
			HelpText:  "three colours of light",
		}},
		Metrics: []mmv.MetricDef{
			{Name: "i32", Item: 1, Type: mmv.TypeI32, Sem: pcp.SemInstant, Units: unitsCount},
			{Name: "u32", Item: 2, Type: mmv.TypeU32, Sem: pcp.SemCounter, Units: unitsCount, ShortText: "a counter"},
			{Name: "i64", Item: 3, Type: mmv.TypeI64, Sem: pcp.SemInstant},
			{Name: "u64", Item: 4, Type: mmv.TypeU64, Sem: pcp.SemCounter, Units: unitsCount, Indom: 7,
				ShortText: "per colour", HelpText: "one counter for each colour"},
			{Name: "float", Item: 5, Type: mmv.TypeFloat, Sem: pcp.SemInstant, Units: unitsMBps},
			{Name: "double", Item: 6, Type: mmv.TypeDouble, Sem: pcp.SemDiscrete, Indom: 7},
			{Name: "string", Item: 7, Type: mmv.TypeString, Sem: pcp.SemDiscrete},
			{Name: "elapsed", Item: 8, Type: mmv.TypeElapsed, Sem: pcp.SemCounter, Units: unitsUsec},
		},
	}
	if long {
		reg.Metrics = append(reg.Metrics, mmv.MetricDef{
			Name: "a_name_that_is_longer_than_sixty_three_bytes.so_it_needs_version_two",
			Item: 9, Type: mmv.TypeU32, Sem: pcp.SemInstant})
	}
	if version == 3 {
		reg.Labels = []mmv.LabelDef{
			{Flags: mmv.LabelCluster, Identity: 321, Name: "cluster_label", Value: `"acme"`},
			{Flags: mmv.LabelCluster | mmv.LabelOptional, Identity: 321, Name: "optional_label", Value: `true`},
			{Flags: mmv.LabelInDom, Identity: 7, Name: "indom_label", Value: `42`},
			{Flags: mmv.LabelItem, Identity: 4, Name: "item_label", Value: `{"a":1,"b":[1,2]}`},
			{Flags: mmv.LabelInstances, Identity: 7, Internal: 2, Name: "instance_label", Value: `"green"`},
		}
	}
	return reg
}

// fillSample stores recognisable values in every slot of a sample file.
func fillSample(p *mmv.Plan, b []byte) {
	set := func(name, inst string, f func(mmv.Slot)) {
		m, i, err := p.Lookup(name, inst)
		if err != nil {
			panic(name + "[" + inst + "]: " + err.Error())
		}
		s, err := p.Slot(b, nil, m, i)
		if err != nil {
			panic(err)
		}
		f(s)
	}
	set("i32", "", func(s mmv.Slot) { s.SetInt(-42) })
	set("u32", "", func(s mmv.Slot) { s.SetUint(4000000000) })
	set("i64", "", func(s mmv.Slot) { s.SetInt(-1234567890123) })
	for k, c := range []string{"red", "green", "blue"} {
		set("u64", c, func(s mmv.Slot) { s.SetUint(1<<40 + uint64(k)) })
		set("double", c, func(s mmv.Slot) { s.SetFloat(0.5 + 1.25*float64(k)) })
	}
	set("float", "", func(s mmv.Slot) { s.SetFloat(3.25) })
	set("string", "", func(s mmv.Slot) {
		if err := s.SetString("hello, world"); err != nil {
			panic(err)
		}
	})
	set("elapsed", "", func(s mmv.Slot) { s.SetInt(1000) })
}
