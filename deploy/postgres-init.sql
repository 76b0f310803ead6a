-- Keycloak's database, on Mailroom's PostgreSQL (deploy/compose.yaml), owned by the same role.
CREATE DATABASE keycloak OWNER mailroom;
