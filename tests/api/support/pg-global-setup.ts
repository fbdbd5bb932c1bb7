import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../../../src/db/client';

/**
 * Migrates one template database per run; each test file then clones it
 * (CREATE DATABASE ... TEMPLATE), so files get their own database in milliseconds.
 */
export default async function setup({ provide }: { provide: (key: string, value: string) => void }) {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL is required for the PostgreSQL API project');
  const template = `wellhaven_tpl_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  await database.migrate();
  await database.close();
  provide('pgTemplate', template);
  return async () => {
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.end();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
  }
}
