package main

// main is empty: a c-shared wasip1 module is a reactor whose host calls
// _initialize and then the exports. Natively the package builds too, so
// that its tests (which run the wasip1 build in wazero) live beside it.
func main() {}
