/* calls.sh fixture: b.c reads c.c's variable; its helper() is its own */
extern int dag_table[4];
static int helper(int x) { return x & 3; }
int dag_b(int x) { return dag_table[helper(x)]; }
