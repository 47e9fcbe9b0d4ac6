/**
 * Video generation jobs: POST /v1/videos creates one, GET /v1/videos/{id} answers 409 video_not_ready until
 * it has rendered (spec: "Video unfinished; poll status until completed"), then the completed video object.
 *
 * Sim choices: a job renders for `renderMsPerSecond` x seconds of SimClock time; its status is derived from
 * the time (queued for the first tenth, then in_progress); the price (usdPerSecond x seconds) is charged when
 * a host accepts the job, and a host failing partway before that is charged half of it (never more than the
 * price in all; module.ts); a job is visible only to the key that created it (others get 404).
 */
import type { InferenceModelConfig } from '../config.js';
import { fail } from './errors.js';
import { tokensOf } from './chat.js';

export interface VideoJob {
  id: string;
  key: string;
  model: string;
  prompt: string;
  seconds: number;
  size: string;
  host: string;
  createdAt: number;
  completeAt: number;
}

export interface VideoRequest {
  prompt: string;
  seconds: number;
  size: string;
}

const DEFAULT_SECONDS = 4;

export function parseVideo(body: Record<string, unknown>, model: InferenceModelConfig): VideoRequest {
  if (model.kind !== 'video') fail(400, 'invalid_request', `model ${model.id} does not generate videos`);
  const prompt = body.prompt;
  if (prompt === undefined) fail(400, 'invalid_request', 'missing required parameter: prompt');
  if (typeof prompt !== 'string' || prompt.trim() === '') fail(400, 'invalid_request', 'prompt must be a non-empty string');
  if (tokensOf(prompt) > model.contextTokens) fail(400, 'invalid_request', `prompt too long: at most ${model.contextTokens} tokens`);
  let seconds = Math.min(DEFAULT_SECONDS, model.maxSeconds);
  if (body.seconds !== undefined) {
    // Accepts 8 or "8": video APIs commonly send the duration as a string.
    const raw = body.seconds;
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[1-9]\d*$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > model.maxSeconds) fail(400, 'invalid_request', `seconds must be an integer from 1 to ${model.maxSeconds}`);
    seconds = n;
  }
  let size = '1280x720';
  if (body.size !== undefined) {
    if (typeof body.size !== 'string' || !/^\d{3,4}x\d{3,4}$/.test(body.size)) fail(400, 'invalid_request', 'size must look like 1280x720');
    size = body.size;
  }
  return { prompt, seconds, size };
}

export function videoStatus(job: VideoJob, now: number): { status: 'queued' | 'in_progress' | 'completed'; progress: number } {
  if (now >= job.completeAt) return { status: 'completed', progress: 100 };
  const total = Math.max(1, job.completeAt - job.createdAt);
  const progress = Math.floor(((now - job.createdAt) / total) * 100);
  return { status: progress < 10 ? 'queued' : 'in_progress', progress };
}

export function videoJson(job: VideoJob, now: number): Record<string, unknown> {
  const s = videoStatus(job, now);
  return {
    id: job.id,
    object: 'video',
    model: job.model,
    status: s.status,
    progress: s.progress,
    created_at: Math.floor(job.createdAt / 1000),
    seconds: String(job.seconds),
    size: job.size,
    ...(s.status === 'completed' ? { completed_at: Math.floor(job.completeAt / 1000), url: `sim://videos/${job.id}.mp4` } : {}),
  };
}
