import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { messages } from '#shared/messages/index';
import { AppError } from '../lib/app-error';
import type { AuthenticatedSession, AuthService } from '../modules/auth/auth.service';
import { asArray } from '../lib/as-array';

/** Who may call a route. Every /api route must declare one in `config.access`. */
export type Access = 'public' | 'member' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: AuthenticatedSession | null;
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  access: Access;
}

const ADMIN_FORBIDDEN = 'Admin access required';

/** The session behind a guarded route; the guard has already proved it exists. */
export function sessionOf(request: FastifyRequest): AuthenticatedSession {
  if (!request.auth) throw new AppError('unauthenticated', messages.auth.server.unauthenticated);
  return request.auth;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(header);
  return match?.[1];
}

/**
 * Attaches the guard that `config.access` names to every route, and records the route table
 * so tests can walk every route with every kind of caller.
 */
export function registerAuthGuards(app: FastifyInstance, auth: AuthService, routeTable: RouteEntry[]) {
  app.decorateRequest('auth', null);

  async function resolve(request: FastifyRequest) {
    const token = bearerToken(request);
    if (!token) throw new AppError('unauthenticated', messages.auth.server.unauthenticated);
    request.auth = await auth.authenticate(token);
  }

  // A public route gets no guard at all: an empty hook still costs a promise per request.
  const guards: Record<Exclude<Access, 'public'>, (request: FastifyRequest, reply: FastifyReply) => Promise<void>> = {
    member: resolve,
    admin: async (request) => {
      await resolve(request);
      const session = request.auth!;
      if (!auth.isAdminElevated(session)) {
        throw new AppError('forbidden', ADMIN_FORBIDDEN);
      }
    },
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    const access = route.config?.access;
    const methods = asArray(route.method);
    if (!route.url.startsWith('/api/')) return;
    if (!access) throw new Error(`Route ${methods.join(',')} ${route.url} must declare config.access`);
    for (const method of methods) if (method !== 'HEAD') routeTable.push({ method, url: route.url, access });
    // onRequest: callers are refused before their body is even parsed or validated.
    if (access === 'public') return;
    route.onRequest = [guards[access], ...asArray(route.onRequest)];
  });
}
