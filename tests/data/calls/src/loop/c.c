/* calls.sh fixture: c.c calls a.c, closing the loop */
int loop_a(int x);
int loop_c(int x) { return loop_a(x); }
