-- The list's order in SQL, whole logs instead of their last lines, and each job's metrics.
--
-- created_ns is the job's creation time as its status gives it, in epoch nanoseconds (0 while it has
-- none): the list is newest first by it, so a page of GET /jobs reads only the rows it shows instead
-- of every row of the namespace. Rows of V1 get their submit time, the closest they have.
alter table job_history add column created_ns bigint;
update job_history set created_ns = created_at * 1000000;
alter table job_history alter column created_ns set not null;
drop index job_history_newest;
create index job_history_listed on job_history (namespace, created_ns desc);

-- A replica's log as kept when its job finished: all of it up to paddlejobs.history.max-log-size, its
-- end beyond that.
alter table job_log_tails rename to job_logs;
alter table job_logs rename column lines to content;

-- What the job's trainers reported (a MetricsSnapshot as JSON), kept once they all ended.
create table job_metrics (
    namespace     varchar(63) not null,
    name          varchar(63) not null,
    snapshot_json text        not null,
    primary key (namespace, name)
);
