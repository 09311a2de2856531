export * from './activity.js';
export * from './agent.js';
export * from './conversations.js';
export * from './drivers.js';
export * from './intents.js';
export * from './knowledge.js';
export * from './organisation.js';
export * from './templates.js';
