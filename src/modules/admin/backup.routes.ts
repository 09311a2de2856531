import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireActor } from '../../core/http/route-config.js';
import { errorResponses } from '../../core/http/schemas.js';
import { BackupArchive } from './backup.schemas.js';
import type { BackupService } from './backup.service.js';

/** The backup download of an embedded service (the `backup` command calls it while the service runs). */
export const backupRoutes: FastifyPluginAsyncTypebox<{ backups: BackupService }> = async (
  app,
  { backups },
) => {
  app.post('/admin/backup', {
    schema: {
      tags: ['admin'],
      operationId: 'createBackup',
      response: { 200: BackupArchive, ...errorResponses(401, 403, 409) },
    },
    config: { auth: 'user', permission: 'canEditSettings', audit: { entityType: 'backup' } },
    handler: async (request, reply) => {
      const backup = await backups.create(requireActor(request));
      reply.header('content-type', 'application/x-tar');
      reply.header('content-disposition', `attachment; filename="${backup.fileName}"`);
      return reply.send(backup.stream);
    },
  });
};
