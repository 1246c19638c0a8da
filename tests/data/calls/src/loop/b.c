/* calls.sh fixture: b.c calls c.c */
int loop_c(int x);
int loop_b(int x) { return loop_c(x); }
