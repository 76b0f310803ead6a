/**
 * One contact (an addition, issue 24): its drawer's read, and a member's addition, edit and deletion.
 * Thin: openapi.yaml has checked the inputs' shapes; the contact service checks the values.
 */
import type { ContactChange, NewContact } from '@mailroom/api-client';
import { Router } from 'express';
import { memberOf } from '../../auth/middleware.js';
import type { AppDeps } from '../../deps.js';
import { id } from '../request.js';

export function contactsRouter({ services }: Pick<AppDeps, 'services'>): Router {
  const { contacts } = services;
  const router = Router();

  router.post('/api/audiences/:id/contacts', async (req, res) => {
    res.status(201).json(await contacts.add(id(req), req.body as NewContact, memberOf(req)));
  });

  router.get('/api/audiences/:id/contacts/:contactId', async (req, res) => {
    res.json(await contacts.get(id(req), id(req, 'contactId')));
  });

  router.patch('/api/audiences/:id/contacts/:contactId', async (req, res) => {
    res.json(await contacts.update(id(req), id(req, 'contactId'), req.body as ContactChange, memberOf(req)));
  });

  router.delete('/api/audiences/:id/contacts/:contactId', async (req, res) => {
    await contacts.remove(id(req), id(req, 'contactId'), memberOf(req));
    res.status(204).end();
  });

  return router;
}
