/* perfwire differential oracle: see oracle.c. */
#define ORACLE_PDU 1
#define ORACLE_LABELS 2

/*
 * oracle_run decodes b with libpcp and writes canonical text into out.
 * It returns the text length, -1 when libpcp rejects the input, or -2
 * when the text does not fit in outcap bytes.
 */
int oracle_run(int kind, const unsigned char *b, int len, char *out, int outcap);
