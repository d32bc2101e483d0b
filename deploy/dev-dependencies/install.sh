#!/usr/bin/env bash
# Installs PostgreSQL (one database per service), RabbitMQ, Redis, MinIO and a mail catcher into a
# development cluster, and the Secrets the chart references, all in one namespace. Not for production:
# passwords are fixed development values and storage is small.
#   bash deploy/dev-dependencies/install.sh [namespace]
set -euo pipefail
ns="${1:-readiness-dev}"
here="$(cd "$(dirname "$0")" && pwd)"
charts=oci://registry-1.docker.io/bitnamicharts

kubectl create namespace "$ns" --dry-run=client -o yaml | kubectl apply -f -

# Pinned chart versions: bump them deliberately, one at a time, after reading their upgrade notes.
helm upgrade --install postgresql "$charts/postgresql" --version 16.0.0 -n "$ns" -f "$here/postgresql.yaml" --wait
helm upgrade --install rabbitmq "$charts/rabbitmq" --version 15.0.0 -n "$ns" -f "$here/rabbitmq.yaml" --wait
helm upgrade --install redis "$charts/redis" --version 20.0.0 -n "$ns" -f "$here/redis.yaml" --wait
helm upgrade --install minio "$charts/minio" --version 14.0.0 -n "$ns" -f "$here/minio.yaml" --wait
kubectl apply -n "$ns" -f "$here/mailpit.yaml"

secret() { kubectl create secret generic "$1" -n "$ns" "${@:2}" --dry-run=client -o yaml | kubectl apply -f -; }
# Every service but the gateway has a database (postgresql.yaml's roles, written by `make topology`).
for svc in $(cd "$here/../../services" && ls -d */ | tr -d / | grep -vx gateway); do
  secret "readiness-$svc-database" --from-literal=url="postgres://$svc:dev-$svc@postgresql:5432/$svc"
done
secret readiness-rabbitmq --from-literal=amqp-url="amqp://readiness:dev-rabbitmq@rabbitmq:5672"
secret readiness-redis --from-literal=redis-url="redis://:dev-redis@redis-master:6379"
secret readiness-smtp --from-literal=smtp-url="smtp://mailpit:1025"
secret readiness-s3 --from-literal=access-key=readiness --from-literal=secret-key=dev-minio-secret
if ! kubectl get secret readiness-auth-jwt -n "$ns" >/dev/null 2>&1; then
  key="$(mktemp)"
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$key" 2>/dev/null
  secret readiness-auth-jwt --from-file=private.pem="$key"
  rm -f "$key"
fi
# The integrations service's LTI tool key (published at /api/lti/jwks), generated once like the admin tokens' key.
if ! kubectl get secret readiness-integrations-lti -n "$ns" >/dev/null 2>&1; then
  key="$(mktemp)"
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$key" 2>/dev/null
  secret readiness-integrations-lti --from-file=private.pem="$key"
  rm -f "$key"
fi
# The report service's key for the certificates' Open Badges credentials (published at /api/verify/jwks).
if ! kubectl get secret readiness-report-credentials -n "$ns" >/dev/null 2>&1; then
  key="$(mktemp)"
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$key" 2>/dev/null
  secret readiness-report-credentials --from-file=private.pem="$key"
  rm -f "$key"
fi
# Generated once, like the signing key: replacing it would leave events already queued unreadable.
if ! kubectl get secret readiness-event-secrets -n "$ns" >/dev/null 2>&1; then
  secret readiness-event-secrets --from-literal=key="$(openssl rand -base64 32)"
fi
echo "Dependencies ready in namespace $ns: skaffold dev -p dev -n $ns"
