// Package dltkpi parses the KPI messages that COVESA's dlt-kpi writes
// into DLT: process lifecycle, CPU usage and interrupt statistics.
//
// Each message is a verbose DLT log whose single string argument holds a
// tag (NEW, STP, ACT, CHK, IRQ) and semicolon-separated fields; long
// datasets are split across messages between BEG and END markers. The
// package parses those strings, reassembles sync groups and tracks the
// processes they describe.
package dltkpi
