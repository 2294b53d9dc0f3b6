ALTER TABLE "vulnerabilities" ADD COLUMN "product_kind" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- A record's copy of its main product's kind: the public search's kind filter reads it from the matches
-- themselves (a join on products cost one probe per match, or a hash of every product under a
-- prepared statement's generic plan).
CREATE FUNCTION "vulnerabilities_product_kind_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.product_kind := (SELECT p.kind FROM products p WHERE p.id = NEW.product_id);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "vulnerabilities_product_kind" BEFORE INSERT OR UPDATE OF product_id ON "vulnerabilities"
  FOR EACH ROW EXECUTE FUNCTION vulnerabilities_product_kind_trigger();--> statement-breakpoint
CREATE FUNCTION "products_kind_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE vulnerabilities SET product_kind = NEW.kind WHERE product_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "products_kind" AFTER UPDATE OF kind ON "products" FOR EACH ROW
  WHEN (OLD.kind IS DISTINCT FROM NEW.kind)
  EXECUTE FUNCTION products_kind_trigger();--> statement-breakpoint
UPDATE "vulnerabilities" v SET "product_kind" = p.kind FROM "products" p WHERE p.id = v.product_id;
--> statement-breakpoint
-- Planner statistics for databases imported before imports gathered them (PGlite has no autovacuum).
ANALYZE "products", "vulnerabilities", "affected_ranges";
