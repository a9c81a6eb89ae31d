package archive

// sortStable sorts s, a list of indexes, by cmp and keeps the order of
// equal ones: a bottom-up merge sort through one buffer. It stands in for
// slices.SortStableFunc, whose insertion sort, symmetric merge and
// rotations are linked into each WebAssembly module that reads archives
// (module size; see wasm/size); the three sorts here are of instances, volumes and
// instance-domain records, all lists of indexes.
func sortStable(s []int, cmp func(a, b int) int) {
	buf := make([]int, len(s))
	src, dst := s, buf
	for width := 1; width < len(s); width *= 2 {
		for lo := 0; lo < len(s); lo += 2 * width {
			mid, hi := min(lo+width, len(s)), min(lo+2*width, len(s))
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				// Take from the right run only when it is strictly
				// first: equal elements keep their order.
				if cmp(src[j], src[i]) < 0 {
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	copy(s, src)
}
