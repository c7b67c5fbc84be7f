// @ts-check
// The stacks of a job's trainers side by side (the status page's Stacks section): pure, so node tests it as it is.
// No imports: the tests load it from its text.

/**
 * @typedef {{function: string, file: string, line?: number}} Frame
 * @typedef {{name: string, os_thread_id?: number, active: boolean, owns_gil: boolean, frames: Frame[]}} Thread
 * @typedef {{pid: number, namespace_pid?: number, command: string, threads: Thread[], note?: string}} Process
 * @typedef {{replica: string, role: string, index: number, pid?: number, namespace_pid?: number,
 *   processes: Process[], error?: string}} ReplicaStacks
 * @typedef {{attempt: number, taken_at: string, trigger: string, replicas: ReplicaStacks[]}} StackDump
 * @typedef {{text: string, where: string, differs: boolean}} FrameView
 * @typedef {{key: string, title: string, frames: FrameView[]}} ThreadView
 * @typedef {{replica: string, title: string, notes: string[], threads: ThreadView[]}} ReplicaView
 */

/** One frame as people compare them: the function and where it is; a different line is a different place. */
function place(frame) {
  return `${frame.function} ${frame.file}:${frame.line ?? ''}`;
}

/** Which thread of which process a stack is, the same in every rank: the nth Python process's thread by name. */
function threadKey(processIndex, thread) {
  return `${processIndex}/${thread.name}`;
}

/**
 * Each replica's stacks, outermost frame first (as a program is read: from its start to where it waits), each frame
 * marked where the ranks differ. Stacks are compared thread by thread (the same thread name in the same process of
 * each rank), frame by frame from the outermost: a frame differs when another rank that has the thread is somewhere
 * else at that depth, or has no frame there, or when another rank has no such thread. A single rank differs from
 * nobody.
 * @param {StackDump} dump
 * @returns {ReplicaView[]}
 */
export function sideBySide(dump) {
  /** @type {Map<string, Map<string, Frame[]>>} thread key → replica → frames, outermost first */
  const byThread = new Map();
  for (const replica of dump.replicas) {
    replica.processes.forEach((process, processIndex) => {
      for (const thread of process.threads) {
        const key = threadKey(processIndex, thread);
        if (!byThread.has(key)) byThread.set(key, new Map());
        byThread.get(key).set(replica.replica, [...thread.frames].reverse());
      }
    });
  }
  const ranks = dump.replicas.length;
  return dump.replicas.map((replica) => ({
    replica: replica.replica,
    title: replicaTitle(replica),
    notes: [replica.error, ...replica.processes.map((process) => process.note)].filter(Boolean),
    threads: replica.processes.flatMap((process, processIndex) => process.threads.map((thread) => {
      const key = threadKey(processIndex, thread);
      const all = byThread.get(key);
      const others = [...all.entries()].filter(([name]) => name !== replica.replica).map(([, frames]) => frames);
      const missingSomewhere = all.size < ranks;
      const frames = all.get(replica.replica);
      return {
        key,
        title: threadTitle(process, thread, replica.processes.length > 1),
        frames: frames.map((frame, depth) => ({
          text: frame.function,
          where: frame.line ? `${frame.file}:${frame.line}` : frame.file,
          differs: missingSomewhere || others.some((theirs) => !theirs[depth] || place(theirs[depth]) !== place(frame)),
        })),
      };
    })),
  }));
}

/** The replica and where to find it on the host: its pid (and the one its own programs see, in a sandbox). */
function replicaTitle(replica) {
  if (replica.pid === undefined || replica.pid === null) return replica.replica;
  const inside = replica.namespace_pid ? `, ${replica.namespace_pid} in its sandbox` : '';
  return `${replica.replica} (pid ${replica.pid}${inside})`;
}

function threadTitle(process, thread, severalProcesses) {
  const state = thread.active ? 'running' : 'waiting';
  const inProcess = severalProcesses ? ` of pid ${process.pid}` : '';
  return `${thread.name}${inProcess}, ${state}${thread.owns_gil ? ', holds the GIL' : ''}`;
}

/** How a dump is named in the list of kept ones: which attempt (from 0, as the JSON counts), when and why. */
export function dumpLabel(dump) {
  const why = dump.trigger === 'stall' ? 'when the stall was seen' : 'on request';
  return `Attempt ${dump.attempt}, ${dump.taken_at.replace('T', ' ').replace(/\.\d+/, '').replace('Z', ' UTC')}, ${why}`;
}

/**
 * The attempts a person can pick the logs of, newest first, numbered from 0 as the JSON and PADDLE_JOB_RESTART_COUNT
 * are: the current one (its logs are the replicas' logs without an attempt) and every earlier one.
 * @param {{number: number, finished_at?: string, reason?: string}[]} attempts
 * @returns {{value: string, label: string}[]}
 */
export function attemptChoices(attempts) {
  if (attempts.length < 2) return [];
  const last = Math.max(...attempts.map((attempt) => attempt.number));
  return [...attempts].sort((a, b) => b.number - a.number).map((attempt) => ({
    value: attempt.number === last ? '' : String(attempt.number),
    label: `Attempt ${attempt.number}${attempt.number === last ? ' (the last)' : ''}${attempt.reason ? `: ${attempt.reason}` : ''}`,
  }));
}
