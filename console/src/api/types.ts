import type { Success } from './client';

/** Names for the answers the pages use, taken from the generated description. */
export type Me = Success<'/me', 'get'>;
export type ApprovalPage = Success<'/approvals', 'get'>;
export type ApprovalItem = ApprovalPage['items'][number];
export type ApprovalDetail = Success<'/approvals/{id}', 'get'>;
export type BatchResult = Success<'/approvals/batch', 'post'>['results'][number];
export type NotificationPage = Success<'/notifications', 'get'>;
export type Notification = NotificationPage['items'][number];
export type AgentTask = Success<'/agent-tasks', 'get'>['items'][number];
export type AgentTaskDetail = Success<'/agent-tasks/{id}', 'get'>;
export type TaskStats = Success<'/agent-tasks/stats', 'get'>['stats'][number];
export type KnowledgeBase = Success<'/knowledge/bases', 'get'>['items'][number];
export type DocumentItem = Success<'/knowledge/documents', 'get'>['items'][number];
export type RagDraft = Success<'/rag/draft', 'post'>;
export type WebMessage = Success<'/conversations/web/messages', 'get'>['items'][number];
export type Namespace = Success<'/namespaces', 'get'>['items'][number];
export type Department = Success<'/departments', 'get'>['items'][number];
export type IntentSummary = Success<'/intents', 'get'>['items'][number];
export type IntentExample = Success<'/intents/examples', 'get'>['items'][number];
export type IntentTrust = Success<'/intents/trust', 'get'>['items'][number];
export type UserItem = Success<'/users', 'get'>['items'][number];
