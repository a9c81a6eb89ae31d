package main

/*
#include "bench.h"
*/
import "C"

import (
	"bytes"
	"os"

	"github.com/perfwire/perfwire/labels"
)

func figLabelParse(cfg Config) Figure {
	f := Figure{
		ID:       "labels-parse",
		Title:    "label set parse (testdata/labels/parse-10.json, 10 labels)",
		Unit:     "parse of the set",
		Goal:     "perfwire ≥ 2x libpcp's parser",
		MinRatio: 2,
	}
	text, err := os.ReadFile("testdata/labels/parse-10.json")
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	text = bytes.TrimSpace(text)
	f.Bytes = len(text)
	ct := cBytes(text)
	var set labels.Set
	f.compare(cfg, false, []Side{
		{Name: "perfwire labels.Parse (reused Set)", Run: func(n int) uint64 {
			var sum uint64
			for range n {
				if err := labels.Parse(&set, text, labels.Options{}); err != nil {
					return 0
				}
				sum = uint64(set.Len())<<32 | uint64(len(set.JSON))
			}
			return sum
		}},
		{Name: "libpcp __pmParseLabelSet + pmFreeLabelSets (C -O2)", Peer: true, Run: func(n int) uint64 {
			return uint64(C.bench_label_parse((*C.char)(ct), C.int(len(text)), C.int(n)))
		}},
	})
	checkSums(&f)
	return f
}

func figLabelMerge(cfg Config) Figure {
	f := Figure{
		ID:       "labels-merge",
		Title:    "label merge (testdata/labels/merge-5.jsonl: 5 sets, 20 labels, lowest precedence first)",
		Unit:     "parse + merge of the five texts",
		Goal:     "perfwire ≥ 2x pmMergeLabels",
		MinRatio: 2,
	}
	data, err := os.ReadFile("testdata/labels/merge-5.jsonl")
	if err != nil {
		f.Notes = append(f.Notes, err.Error())
		return f
	}
	var texts [][]byte
	var ss []string
	for line := range bytes.SplitSeq(bytes.TrimSpace(data), []byte("\n")) {
		texts = append(texts, line)
		ss = append(ss, string(line))
		f.Bytes += len(line)
	}
	cs := cStrings(ss)
	var dst labels.Set
	parsed := make([]labels.Set, len(texts))
	ptrs := make([]*labels.Set, len(texts))
	for i := range parsed {
		ptrs[i] = &parsed[i]
	}
	f.compare(cfg, false, []Side{
		{Name: "perfwire labels.MergeTexts (reused Set)", Run: func(n int) uint64 {
			var sum uint64
			for range n {
				if err := labels.MergeTexts(&dst, texts, nil); err != nil {
					return 0
				}
				sum = uint64(len(dst.JSON))
				for _, c := range dst.JSON {
					sum = sum*31 + uint64(c)
				}
			}
			return sum
		}},
		{Name: "perfwire labels.Parse ×5 + labels.Merge (reused Sets)", Run: func(n int) uint64 {
			var sum uint64
			for range n {
				for i, t := range texts {
					if err := labels.Parse(&parsed[i], t, labels.Options{}); err != nil {
						return 0
					}
				}
				if err := labels.Merge(&dst, ptrs, nil); err != nil {
					return 0
				}
				sum = uint64(len(dst.JSON))
				for _, c := range dst.JSON {
					sum = sum*31 + uint64(c)
				}
			}
			return sum
		}},
		{Name: "libpcp pmMergeLabels (C -O2)", Peer: true, Run: func(n int) uint64 {
			return uint64(C.bench_label_merge(cs, C.int(len(ss)), C.int(n)))
		}},
	})
	checkSums(&f)
	return f
}
