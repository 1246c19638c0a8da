-- A software-only `tdctl run` session with fixed numbers (tests/integration/report.sh):
-- two threads of one process, two 1-second intervals, hardware events failed.
INSERT INTO sessions (id, kind, command, target_pid, host, kernel, cpu_vendor, cpu_family, cpu_model, cpu_name,
  uarch, pmu_model, rung, rung_reason, events_file, interval_ms, kernel_counted, started_ns, ended_ns, status,
  exit_code, message, writer_pid, smt, num_cpus)
VALUES (1, 'run', 'fixture-app --work', 4000, 'fixture-host', '6.1.0-fixture', 'AuthenticAMD', 25, 17,
  'AMD EPYC fixture', 'Zen 4', '', 'software-only',
  'hardware counters are unavailable because this VM (KVM) exposes no PMU to the guest', '', 1000, 1,
  1700000000000000000, 1700000002000000000, 'completed', 0, 'target exited', 1, 0, 2);
INSERT INTO targets (id, session_id, kind, pid, tid, comm, first_seen_ns, last_seen_ns, exited) VALUES
  (1, 1, 'thread', 4000, 4000, 'fixture-app', 1700000000000000000, 1700000002000000000, 0),
  (2, 1, 'thread', 4000, 4001, 'worker', 1700000000000000000, 1700000002000000000, 1);
INSERT INTO events (id, session_id, name, spec, group_idx, type, config, status, error, config1) VALUES
  (1, 1, 'TASK_CLOCK', 'perf::TASK-CLOCK', 0, 1, 1, 'counting', NULL, 0),
  (2, 1, 'CONTEXT_SWITCHES', 'perf::CONTEXT-SWITCHES', 0, 1, 3, 'counting', NULL, 0),
  (3, 1, 'CPU_MIGRATIONS', 'perf::CPU-MIGRATIONS', 0, 1, 4, 'counting', NULL, 0),
  (4, 1, 'PAGE_FAULTS', 'perf::PAGE-FAULTS', 0, 1, 2, 'counting', NULL, 0),
  (5, 1, 'CYCLES', 'perf::CYCLES', 1, 0, 0, 'failed', 'event CYCLES does not exist on this machine (ENOENT)', 0),
  (6, 1, 'INSTRUCTIONS', 'perf::INSTRUCTIONS', 1, 0, 1, 'failed', 'event CYCLES does not exist on this machine (ENOENT)', 0);
INSERT INTO intervals (id, session_id, seq, start_ns, end_ns) VALUES
  (1, 1, 0, 1700000000000000000, 1700000001000000000),
  (2, 1, 1, 1700000001000000000, 1700000002000000000);
INSERT INTO counts (interval_id, thread_id, event_id, value, enabled, running) VALUES
  (1, 1, 1, 500000000, 500000000, 500000000), (1, 1, 2, 100, 500000000, 500000000),
  (1, 1, 3, 2, 500000000, 500000000), (1, 1, 4, 1000, 500000000, 500000000),
  (1, 2, 1, 250000000, 250000000, 250000000), (1, 2, 2, 40, 250000000, 250000000),
  (1, 2, 3, 0, 250000000, 250000000), (1, 2, 4, 10, 250000000, 250000000),
  (2, 1, 1, 500000000, 500000000, 500000000), (2, 1, 2, 100, 500000000, 500000000),
  (2, 1, 3, 2, 500000000, 500000000), (2, 1, 4, 1000, 500000000, 500000000),
  (2, 2, 1, 750000000, 750000000, 750000000), (2, 2, 2, 60, 750000000, 750000000),
  (2, 2, 3, 1, 750000000, 750000000), (2, 2, 4, 10, 750000000, 750000000);
