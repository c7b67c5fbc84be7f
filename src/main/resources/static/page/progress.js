// @ts-check
// How far a job's training is, in words, from the progress its status and list line carry (the
// slowest reporting trainer's step, of total_steps when the trainers report one, and its rate).
import { formatDuration } from './common.js';

/** "Step 120 of 1000 (12%) · 3.4 steps/s · about 4 min 10 s left"; "Step 40 · 2.0 steps/s" without a total. */
export function progressWords(progress) {
  if (!progress) return '';
  const parts = [progress.total_steps
    ? `Step ${progress.step} of ${progress.total_steps} (${percent(progress.fraction)})`
    : `Step ${progress.step}`];
  if (progress.steps_per_second !== null && progress.steps_per_second !== undefined) {
    parts.push(`${progress.steps_per_second.toFixed(1)} steps/s`);
  }
  if (progress.eta_seconds !== null && progress.eta_seconds !== undefined) {
    parts.push(`about ${formatDuration(progress.eta_seconds * 1000)} left`);
  }
  return parts.join(' · ');
}

/** "12%": whole percent, never 100% before the last step. */
export function percent(fraction) {
  return `${Math.floor((fraction || 0) * 100)}%`;
}
