/** A planned maintenance window, as its S3 marker states it and as a report records it (core/post-run/maintenance.ts). */
import { z } from 'zod';

export const MaintenanceWindow = z.object({
  until: z.iso
    .datetime({ offset: true })
    .describe('When the window ends (UTC); alerting resumes with the first run after it'),
  reason: z.string().trim().min(1).max(300).default('planned maintenance'),
});
export type MaintenanceWindow = z.output<typeof MaintenanceWindow>;
