-- schema.sql — the warpscope results database, documented in one place. This file is
-- embedded into ws_store at build time and applied as numbered migrations: the section
-- after a line "-- @migration N" brings a database from user_version N-1 to N. Never edit
-- a released section; append a new one (ALTER TABLE / CREATE ...) instead.
--
-- Conventions (for the sqlite3 shell and pandas):
--   * every per-run table has a run_id referencing runs(id) ON DELETE CASCADE, so
--     `PRAGMA foreign_keys=ON; DELETE FROM runs WHERE id = 7;` removes a run completely
--     (the sqlite3 shell leaves foreign keys off unless told);
--   * counts are integers, rates are fractions in [0,1] (not percent) unless the column
--     name ends in _pct; times are nanoseconds;
--   * NULL means "unknown / not applicable" (e.g. a source line the compiler did not map);
--   * `id INTEGER PRIMARY KEY` columns keep the order in which a run's rows were written.

-- @migration 1

-- Bookkeeping: one row per migration applied (version, when).
CREATE TABLE schema_migrations (
    version     INTEGER PRIMARY KEY,
    applied     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- One execution of one variant of one workload: on the simulator or on a GPU.
CREATE TABLE runs (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    created         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')), -- UTC
    tool_version    TEXT NOT NULL,          -- warpscope version that wrote the run
    git_revision    TEXT NOT NULL,          -- its git revision ("unknown" outside git)
    source          TEXT NOT NULL,          -- "sim:ipdom" or "gpu:<device name>"
    workload        TEXT NOT NULL,
    variant         TEXT NOT NULL,
    kernel          TEXT NOT NULL,          -- C name of the __global__ function
    grid_x INTEGER NOT NULL, grid_y INTEGER NOT NULL, grid_z INTEGER NOT NULL,
    block_x INTEGER NOT NULL, block_y INTEGER NOT NULL, block_z INTEGER NOT NULL,
    smem_dynamic    INTEGER NOT NULL,       -- bytes of dynamic shared memory per CTA
    params          TEXT NOT NULL,          -- constants as "LOOP=100 DPT=16"
    seed            INTEGER NOT NULL,       -- input seed (stored as signed 64-bit)
    device_json     TEXT NOT NULL,          -- JSON: GPU name/cc/SMs/clocks or sim model/preset
    outputs_checked INTEGER NOT NULL,       -- 1 when outputs were compared
    outputs_match   INTEGER NOT NULL,       -- 1 equal, 0 differ (meaningful when checked)
    check_message   TEXT NOT NULL
);
CREATE INDEX runs_by_workload ON runs(workload, variant, source);

-- Per-run metrics under Nsight Compute's names; simulator-only ones start with "sim__".
CREATE TABLE metrics (
    id      INTEGER PRIMARY KEY,
    run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    name    TEXT NOT NULL,
    value   REAL,                           -- NULL for NaN
    UNIQUE (run_id, name)
);

-- The source text a run was built from, so a map can be drawn without the .cu.
-- file_index is the position in the run's file list (ws_result.files).
CREATE TABLE source_files (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    file_index  INTEGER NOT NULL,
    path        TEXT NOT NULL,
    text        TEXT,                       -- NULL when not available
    UNIQUE (run_id, file_index)
);

-- Counts per instruction: a PTX instruction (simulator) or a SASS instruction (GPU).
CREATE TABLE instructions (
    id                 INTEGER PRIMARY KEY,
    run_id             INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    function           TEXT NOT NULL,
    pc                 INTEGER NOT NULL,    -- PTX: instruction index; SASS: byte offset
    ptx_line           INTEGER NOT NULL,    -- line in the .ptx; 0 for SASS
    file_id            INTEGER REFERENCES source_files(id) ON DELETE CASCADE, -- NULL unknown
    line               INTEGER NOT NULL,    -- source line, 0 when unknown
    block              INTEGER,             -- basic_blocks.block_id in the same function
    text               TEXT NOT NULL,       -- "setp.ge.s32" or the SASS opcode
    issued             INTEGER NOT NULL,    -- warp-level executions
    active_threads     INTEGER NOT NULL,    -- sum of active lanes over executions
    pred_on_threads    INTEGER NOT NULL,    -- of those, lanes whose guard was true
    branch_targets     INTEGER NOT NULL,    -- branches: targets taken (1 or 2 per execution)
    divergent_branches INTEGER NOT NULL     -- branches: executions that split the warp
);
CREATE INDEX instructions_by_run ON instructions(run_id, function, pc);
CREATE INDEX instructions_by_file ON instructions(file_id);

-- The control-flow graph: basic blocks per function. succ1 is NULL for one successor,
-- both are NULL for an exit block; ipdom NULL means the virtual exit.
CREATE TABLE basic_blocks (
    id        INTEGER PRIMARY KEY,
    run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    function  TEXT NOT NULL,
    block_id  INTEGER NOT NULL,
    first_pc  INTEGER NOT NULL,
    last_pc   INTEGER NOT NULL,
    succ0     INTEGER,
    succ1     INTEGER,
    ipdom     INTEGER
);
CREATE INDEX basic_blocks_by_run ON basic_blocks(run_id, function, block_id);

-- The workload's named regions (spec `region` lines), aggregated by the tool.
CREATE TABLE regions (
    id                 INTEGER PRIMARY KEY,
    run_id             INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    name               TEXT NOT NULL,
    first_line         INTEGER NOT NULL,
    last_line          INTEGER NOT NULL,
    issued             INTEGER NOT NULL,
    active_threads     INTEGER NOT NULL,
    pred_on_threads    INTEGER NOT NULL,
    branch_targets     INTEGER NOT NULL,
    divergent_branches INTEGER NOT NULL,
    execution_rate     REAL                 -- active_threads / (32 * issued); NULL for NaN
);
CREATE INDEX regions_by_run ON regions(run_id);

-- Per atomic instruction: how contended it was.
CREATE TABLE atomics (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    function    TEXT NOT NULL,
    pc          INTEGER NOT NULL,
    line        INTEGER NOT NULL,           -- source line, 0 when unknown
    text        TEXT NOT NULL,
    warp_execs  INTEGER NOT NULL,           -- warp-level executions
    lanes       INTEGER NOT NULL            -- lanes over all executions
);
CREATE INDEX atomics_by_run ON atomics(run_id);

-- Histogram of distinct addresses per warp-execution of an atomic: `count` executions
-- touched `distinct_addresses` (0..32) distinct addresses. Only non-zero counts are stored.
CREATE TABLE atomic_distinct_hist (
    atomic_id           INTEGER NOT NULL REFERENCES atomics(id) ON DELETE CASCADE,
    distinct_addresses  INTEGER NOT NULL CHECK (distinct_addresses BETWEEN 0 AND 32),
    count               INTEGER NOT NULL,
    PRIMARY KEY (atomic_id, distinct_addresses)
);

-- Recorded warp lane timelines (a bounded number of warps per run). `slots` packs the
-- issue slots in order as little-endian records of 12 bytes: int32 pc, uint32 active
-- lane mask, uint32 predicated-on lane mask. In pandas:
--   numpy.frombuffer(blob, dtype=[('pc','<i4'), ('active','<u4'), ('pred_on','<u4')])
CREATE TABLE timelines (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    function   TEXT NOT NULL,
    cta        INTEGER NOT NULL,            -- linear CTA id
    warp       INTEGER NOT NULL,            -- warp in the CTA
    nslots     INTEGER NOT NULL,
    truncated  INTEGER NOT NULL,            -- 1 when more slots happened than were kept
    slots      BLOB NOT NULL CHECK (length(slots) = 12 * nslots)
);
CREATE INDEX timelines_by_run ON timelines(run_id);

-- Things a run found worth telling (races, hazards).
CREATE TABLE warnings (
    id      INTEGER PRIMARY KEY,
    run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    text    TEXT NOT NULL
);
CREATE INDEX warnings_by_run ON warnings(run_id);

-- Per run and source line: the divergence map's heat column.
CREATE VIEW line_stats AS
SELECT i.run_id                                   AS run_id,
       f.path                                     AS file,
       i.line                                     AS line,
       SUM(i.issued)                              AS issued,
       SUM(i.active_threads)                      AS active_threads,
       SUM(i.pred_on_threads)                     AS pred_on_threads,
       SUM(i.active_threads - i.pred_on_threads)  AS pred_off_threads,
       SUM(i.branch_targets)                      AS branch_targets,
       SUM(i.divergent_branches)                  AS divergent_branches,
       CASE WHEN SUM(i.issued) > 0
            THEN SUM(i.active_threads) * 1.0 / (32.0 * SUM(i.issued)) END AS execution_rate
FROM instructions i JOIN source_files f ON f.id = i.file_id
WHERE i.line > 0
GROUP BY i.run_id, i.file_id, i.line;

-- Per run: the key figures. execution_rate is a fraction; time_ns is the GPU's measured
-- duration when there is one, else the simulator's prediction.
CREATE VIEW kernel_summary AS
SELECT r.id AS run_id, r.created, r.source, r.workload, r.variant, r.kernel, r.params,
       r.grid_x, r.grid_y, r.grid_z, r.block_x, r.block_y, r.block_z,
       COALESCE(
         (SELECT m.value / 32.0 FROM metrics m WHERE m.run_id = r.id
            AND m.name = 'smsp__thread_inst_executed_per_inst_executed.ratio'),
         (SELECT m.value FROM metrics m WHERE m.run_id = r.id
            AND m.name = 'sim__execution_rate'))                       AS execution_rate,
       (SELECT m.value FROM metrics m WHERE m.run_id = r.id
          AND m.name = 'smsp__sass_average_branch_targets_threads_uniform.pct')
                                                                       AS branch_efficiency_pct,
       COALESCE(
         (SELECT m.value FROM metrics m WHERE m.run_id = r.id
            AND m.name = 'gpu__time_duration.sum'),
         (SELECT m.value FROM metrics m WHERE m.run_id = r.id
            AND m.name = 'sim__time_ns'))                              AS time_ns,
       CASE WHEN r.outputs_checked THEN r.outputs_match END            AS outputs_match
FROM runs r;

-- @migration 2

-- The launches of a launch sequence (a variant of `launch` lines, loops unrolled), one
-- row each in the order they ran; the run's metrics are their sums. A run of a single
-- launch has none. vars: the loop variables of that launch ("K=2 J=0", "" outside loops).
CREATE TABLE launches (
    id           INTEGER PRIMARY KEY,
    run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    launch_index INTEGER NOT NULL,
    kernel       TEXT NOT NULL,
    grid_x INTEGER NOT NULL, grid_y INTEGER NOT NULL, grid_z INTEGER NOT NULL,
    block_x INTEGER NOT NULL, block_y INTEGER NOT NULL, block_z INTEGER NOT NULL,
    smem_dynamic INTEGER NOT NULL,
    vars         TEXT NOT NULL,
    spec_line    INTEGER NOT NULL,       -- the `launch` line of the spec
    UNIQUE (run_id, launch_index)
);

-- Each launch's own metrics (same names as metrics).
CREATE TABLE launch_metrics (
    id          INTEGER PRIMARY KEY,
    launch_id   INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    value       REAL,                    -- NULL for NaN
    UNIQUE (launch_id, name)
);
