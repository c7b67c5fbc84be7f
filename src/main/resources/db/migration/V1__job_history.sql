-- The job history (io.paddlejobs.history.JdbcJobHistory). Plain SQL that H2 and PostgreSQL read alike;
-- times are epoch milliseconds, so no driver's idea of time zones matters.
create table job_history (
    namespace   varchar(63)  not null,
    name        varchar(63)  not null,
    created_at  bigint       not null,
    finished_at bigint,
    phase       varchar(32)  not null,
    plan_json   text         not null,
    status_json text,
    primary key (namespace, name)
);
create index job_history_newest on job_history (namespace, created_at);
create index job_history_finished on job_history (finished_at);

create table job_transitions (
    namespace varchar(63)   not null,
    name      varchar(63)   not null,
    seq       int           not null,
    at_ms     bigint        not null,
    phase     varchar(32)   not null,
    reason    varchar(200),
    message   varchar(4000),
    primary key (namespace, name, seq)
);

create table job_log_tails (
    namespace varchar(63) not null,
    name      varchar(63) not null,
    replica   varchar(80) not null,
    lines     text        not null,
    primary key (namespace, name, replica)
);
