create database 'localhost:/tmp/h-hist/live.fdb' page_size 8192;
create table orders (id integer primary key, cust varchar(40), amount numeric(12,2), note varchar(200));
create index orders_cust on orders(cust);
create table items (id integer primary key, order_id integer, qty integer);
commit;
set term ^;
execute block as declare i int = 0; begin while (i < 20000) do begin insert into orders values (:i, 'cust' || mod(:i, 300), :i * 1.5, rpad('x', 100, 'y')); i = i + 1; end end^
execute block as declare i int = 0; begin while (i < 30000) do begin insert into items values (:i, mod(:i, 20000), mod(:i, 7)); i = i + 1; end end^
set term ;^
commit;
