-- Deletes that stay deleted, and retention counted per namespace.
--
-- A job DELETE removed leaves a tombstone until its name is submitted again (or an hour has passed): the
-- recorder may have read the job from its backend just before the delete, and its late write must not
-- bring the job, its logs or its metrics back.
create table job_tombstones (
    namespace  varchar(63) not null,
    name       varchar(63) not null,
    deleted_at bigint      not null,
    primary key (namespace, name)
);
create index job_tombstones_age on job_tombstones (deleted_at);

-- When this service's submit wrote the row, in epoch nanoseconds (null for a job the recorder added): a
-- write made from what the backend held before then is of an earlier job of the same name.
alter table job_history add column submitted_ns bigint;

-- Retention keeps each namespace's most recently finished jobs.
create index job_history_finished_by_namespace on job_history (namespace, finished_at);
