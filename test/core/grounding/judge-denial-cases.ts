/**
 * A small evaluation set for the judge's denial guard (judge.ts, denialsLeftOut), written before it was tuned: claims
 * that carry a denial, with the statements a judge might return for them, all found supported. `kept`: the statements
 * restate every denial, in the claim's words or in others, so the claim must stay supported. `dropped`: they state a
 * denial's opposite, or leave the denied fact out, so the claim must not be reported supported. Texts are general
 * (software, cooking, travel, robotics), not drawn from the grounding evaluation set.
 */
export interface DenialCase {
  claim: string;
  statements: string[];
}

export const KEPT: readonly DenialCase[] = [
  { claim: 'Isaac Sim does not need a GPU.', statements: ['Isaac Sim does not need a GPU.'] },
  { claim: 'Isaac Sim does not need a GPU.', statements: ['Isaac Sim works without a GPU.'] },
  { claim: 'Isaac Sim does not need a GPU.', statements: ['Isaac Sim has no need for a GPU.'] },
  { claim: "The cache doesn't survive a restart.", statements: ['The cache does not survive a restart.'] },
  {
    claim: 'The cache does not survive a restart, and it holds 10 entries.',
    statements: ['The cache does not survive a restart.', 'The cache holds 10 entries.'],
  },
  {
    claim: 'You cannot resize a volume while it is mounted.',
    statements: ['A volume cannot be resized while it is mounted.'],
  },
  { claim: 'The planner never replans during a turn.', statements: ['The planner does not replan during a turn.'] },
  {
    claim: 'The service runs without root privileges.',
    statements: ['The service does not need root privileges to run.'],
  },
  { claim: 'The service runs without root privileges.', statements: ['The service runs with no root privileges.'] },
  { claim: 'No restart is needed after the change.', statements: ['The change needs no restart.'] },
  {
    claim: 'The dough should not be kneaded after the first rise.',
    statements: ['The dough is not kneaded after the first rise.'],
  },
  { claim: 'It is not possible to undo a force push.', statements: ['A force push cannot be undone.'] },
  { claim: 'The driver lacks support for USB 3.', statements: ['The driver does not support USB 3.'] },
  { claim: 'The driver does not support USB 3.', statements: ['The driver lacks support for USB 3.'] },
  { claim: 'Snapshots are not encrypted by default.', statements: ['By default, snapshots are not encrypted.'] },
  {
    claim: 'Neither the client nor the server logs the token.',
    statements: ['The client does not log the token.', 'The server does not log the token.'],
  },
  {
    claim: 'The museum is closed on Mondays and does not sell tickets online.',
    statements: ['The museum is closed on Mondays.', 'The museum does not sell tickets online.'],
  },
  {
    claim: 'Trains do not stop at the old station any more.',
    statements: ['Trains no longer stop at the old station.'],
  },
  {
    claim: 'The robot cannot climb stairs, so it stays on the ground floor.',
    statements: ['The robot cannot climb stairs.', 'The robot stays on the ground floor.'],
  },
  {
    claim: 'Use a fresh starter instead of dried yeast.',
    statements: ['Use a fresh starter rather than dried yeast.'],
  },
  { claim: "Don't store the key in the repository.", statements: ['The key should not be stored in the repository.'] },
  {
    claim: 'The update does not change the file format.',
    statements: ['The update leaves the file format unchanged, with no change to it.'],
  },
  { claim: 'Compression is not applied to small files.', statements: ['Small files are not compressed.'] },
  {
    claim: 'The API has no rate limit for internal callers.',
    statements: ['Internal callers face no rate limit on the API.'],
  },
  { claim: 'The sensor is not waterproof.', statements: ['The sensor is not waterproof.'] },
  { claim: 'Writes are not blocked during a backup.', statements: ['A backup does not block writes.'] },
  { claim: "The bridge isn't open to trucks.", statements: ['Trucks may not use the bridge; it is not open to them.'] },
  {
    claim: 'The library never allocates on the hot path.',
    statements: ['The library does no allocation on the hot path; it never allocates there.'],
  },
  { claim: 'The job cannot run on Windows.', statements: ['The job does not run on Windows.'] },
  {
    claim: 'The job runs on Linux, not on Windows.',
    statements: ['The job runs on Linux.', 'The job does not run on Windows.'],
  },
];

export const DROPPED: readonly DenialCase[] = [
  { claim: 'Isaac Sim does not need a GPU.', statements: ['Isaac Sim needs a GPU.'] },
  { claim: "Isaac Sim doesn't need a GPU.", statements: ['Isaac Sim requires a GPU, and it needs one.'] },
  { claim: "The cache doesn't survive a restart.", statements: ['The cache survives a restart.'] },
  {
    claim: 'The cache does not survive a restart, and it holds 10 entries.',
    statements: ['The cache holds 10 entries.'],
  },
  {
    claim: 'You cannot resize a volume while it is mounted.',
    statements: ['A volume can be resized while it is mounted.'],
  },
  { claim: 'The planner never replans during a turn.', statements: ['The planner replans during a turn.'] },
  { claim: 'The service runs without root privileges.', statements: ['The service runs with root privileges.'] },
  { claim: 'No restart is needed after the change.', statements: ['A restart is needed after the change.'] },
  {
    claim: 'The dough should not be kneaded after the first rise.',
    statements: ['The dough should be kneaded after the first rise.'],
  },
  { claim: 'The driver lacks support for USB 3.', statements: ['The driver supports USB 3.'] },
  { claim: 'Snapshots are not encrypted by default.', statements: ['Snapshots are encrypted by default.'] },
  {
    claim: 'The museum is closed on Mondays and does not sell tickets online.',
    statements: ['The museum is closed on Mondays.'],
  },
  {
    claim: 'The museum is closed on Mondays and does not sell tickets online.',
    statements: ['The museum is closed on Mondays.', 'The museum sells tickets online.'],
  },
  {
    claim: 'The robot cannot climb stairs, so it stays on the ground floor.',
    statements: ['The robot stays on the ground floor.'],
  },
  { claim: "Don't store the key in the repository.", statements: ['Store the key in the repository.'] },
  { claim: 'Compression is not applied to small files.', statements: ['Compression is applied to small files.'] },
  {
    claim: 'The API has no rate limit for internal callers.',
    statements: ['The API has a rate limit for internal callers.'],
  },
  { claim: 'The sensor is not waterproof.', statements: ['The sensor is waterproof.'] },
  { claim: 'Writes are not blocked during a backup.', statements: ['Writes are blocked during a backup.'] },
  { claim: 'The library never allocates on the hot path.', statements: ['The library allocates on the hot path.'] },
  {
    claim: 'The job runs on Linux, not on Windows.',
    statements: ['The job runs on Linux.', 'The job runs on Windows.'],
  },
  { claim: 'The job runs on Linux, not on Windows.', statements: ['The job runs on Linux.'] },
  {
    claim: 'Neither the client nor the server logs the token.',
    statements: ['The client logs the token.', 'The server logs the token.'],
  },
  { claim: 'It is not possible to undo a force push.', statements: ['It is possible to undo a force push.'] },
];
