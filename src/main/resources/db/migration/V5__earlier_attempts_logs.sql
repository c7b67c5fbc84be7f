-- The logs of a job's earlier attempts (those before the one it finished on): each replica's end, up to
-- paddlejobs.history.max-earlier-log-size, kept when the job finishes where its backend kept them apart
-- (the traceback of a crash a restart was for). The last attempt's log stays in job_logs.
create table job_earlier_logs (
    namespace varchar(63) not null,
    name      varchar(63) not null,
    replica   varchar(80) not null,
    attempt   int         not null,
    content   text        not null,
    primary key (namespace, name, replica, attempt)
);
