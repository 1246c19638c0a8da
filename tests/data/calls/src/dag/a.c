/* calls.sh fixture: a.c calls b.c and c.c */
int dag_b(int x);
int dag_c(int x);
int dag_a(int x) { return dag_b(x) + dag_c(x); }
