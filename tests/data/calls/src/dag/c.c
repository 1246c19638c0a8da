/* calls.sh fixture: c.c calls no other file; a helper() of the same name as b.c's */
int dag_table[4] = { 1, 2, 3, 4 };
static int helper(int x) { return x + 1; }
int dag_c(int x) { return helper(x); }
