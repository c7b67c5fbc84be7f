-- Sweeps (io.paddlejobs.sweeps.SweepStore): each sweep's request as planned, who submitted it, its trials'
-- state, and which service replica drives it. driver and lease_until are the claim: one replica at a time
-- starts and stops a sweep's trials, and another takes it over only once the lease has lapsed (times are
-- epoch milliseconds by the writer's clock; a lease is many times longer than clocks drift apart).
create table sweeps (
    namespace    varchar(63)   not null,
    name         varchar(63)   not null,
    created_at   bigint        not null,
    finished_at  bigint,
    cancelled_at bigint,
    phase        varchar(32)   not null,
    request_json text          not null,
    owner_json   text          not null,
    state_json   text          not null,
    driver       varchar(200),
    lease_until  bigint        not null,
    primary key (namespace, name)
);
create index sweeps_unfinished on sweeps (finished_at);
create index sweeps_newest on sweeps (namespace, created_at);
